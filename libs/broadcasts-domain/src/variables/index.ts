export { parseVariableTemplates } from './parse-variable-templates';
export { renderVariables } from './render-variables';
export type { RecipientValues, RenderedVariables } from './render-variables';
export { placeholderRoots, referencedRowColumns } from './placeholder-roots';
export { VariableTemplateError } from './variable-template-error';
export type { ParsedVariable, ParsedVariables, Placeholder, PlaceholderPath, PlaceholderRoot, TemplateSegment } from './variable-template';
