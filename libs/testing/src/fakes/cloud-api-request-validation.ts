/**
 * The checks the real messages endpoint makes on a request body, enough to make a client bug
 * fail in tests the way it would fail in production (400, code 100, a detail text).
 * Returns the detail text of the first problem, or undefined when the body is acceptable.
 */
export function validateMessageRequest(body: Record<string, unknown>): string | undefined {
  if (body['messaging_product'] !== 'whatsapp') return 'The parameter messaging_product is required.';
  const to = body['to'];
  const recipient = body['recipient'];
  if (to === undefined && recipient === undefined) return 'The parameter to is required.';
  if (to !== undefined && (typeof to !== 'string' || !/\d/.test(to))) return 'Parameter to must be a phone number.';
  if (to === undefined && (typeof recipient !== 'string' || recipient === '')) return 'Parameter recipient must be a business-scoped user id.';
  if (body['recipient_type'] !== undefined && body['recipient_type'] !== 'individual' && body['recipient_type'] !== 'group') {
    return 'Param recipient_type must be individual or group.';
  }
  const type = body['type'] === undefined ? 'text' : body['type'];
  if (typeof type !== 'string' || !(type in TYPE_CHECKS)) return `Param type must be one of {${Object.keys(TYPE_CHECKS).join(', ')}}.`;
  const content = body[type];
  if (typeof content !== 'object' || content === null) return `The parameter ${type} is required.`;
  return TYPE_CHECKS[type]!(content as Record<string, unknown>);
}

type Check = (content: Record<string, unknown>) => string | undefined;

const media: Check = (content) => {
  if (typeof content['link'] !== 'string' && typeof content['id'] !== 'string') return 'Media needs either link or id.';
  if (typeof content['link'] === 'string' && !/^https?:\/\//.test(content['link'])) return 'Media link must be an http(s) URL.';
  return undefined;
};

const TYPE_CHECKS: Record<string, Check> = {
  text: (content) => {
    const text = content['body'];
    if (typeof text !== 'string' || text.trim() === '') return 'The parameter text[body] is required.';
    if (text.length > 4096) return 'Param text[body] must be at most 4096 characters long.';
    return undefined;
  },
  image: media,
  audio: (content) => (content['caption'] !== undefined ? 'Param audio[caption] is not supported.' : media(content)),
  video: media,
  document: media,
  sticker: media,
  interactive: (content) => {
    const body = content['body'] as { text?: unknown } | undefined;
    if (typeof body?.text !== 'string' || body.text === '') return 'The parameter interactive[body][text] is required.';
    if (content['type'] !== 'button') return undefined;
    const buttons = (content['action'] as { buttons?: unknown } | undefined)?.buttons;
    if (!Array.isArray(buttons) || buttons.length < 1 || buttons.length > 3) return 'Param interactive[action][buttons] must have 1 to 3 buttons.';
    for (const button of buttons as { type?: unknown; reply?: { id?: unknown; title?: unknown } }[]) {
      if (button.type !== 'reply' || typeof button.reply?.id !== 'string' || typeof button.reply.title !== 'string') {
        return 'Each button needs type reply and reply[id], reply[title].';
      }
      if (button.reply.title.length > 20) return 'Button title length is invalid. Max length: 20.';
    }
    return undefined;
  },
  template: (content) => {
    if (typeof content['name'] !== 'string' || content['name'] === '') return 'The parameter template[name] is required.';
    const language = content['language'] as { code?: unknown } | undefined;
    if (typeof language?.code !== 'string' || language.code === '') return 'The parameter template[language][code] is required.';
    const components = content['components'];
    if (components !== undefined && !Array.isArray(components)) return 'Param template[components] must be an array.';
    for (const component of (components ?? []) as { type?: unknown; parameters?: unknown }[]) {
      if (!['header', 'body', 'button', 'footer'].includes(String(component.type))) return `Unknown template component type ${String(component.type)}.`;
      if (!Array.isArray(component.parameters)) return 'Each template component needs parameters.';
      for (const parameter of component.parameters as { type?: unknown; text?: unknown }[]) {
        if (parameter.type === 'text' && (typeof parameter.text !== 'string' || parameter.text === '')) return 'Template text parameters cannot be empty.';
      }
    }
    return undefined;
  },
  location: () => undefined,
  contacts: () => undefined,
  reaction: () => undefined,
};
