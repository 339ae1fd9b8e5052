import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Marked, type Tokens } from 'marked';

/** One Markdown page of docs/ rendered for GET /docs/guides/{guide}. */
export interface Guide {
  /** The file name without `.md`: `integrating`. */
  name: string;
  /** The page's first heading. */
  title: string;
  /** The rendered body (our own Markdown: trusted, and the page's CSP runs no script in it anyway). */
  html: string;
}

const GUIDE_FILE = /^([a-z0-9][a-z0-9-]*)\.md$/;
/** A link to another guide, with an optional anchor: `broadcasts.md#figures`. */
const GUIDE_LINK = /^([a-z0-9][a-z0-9-]*)\.md(#[^\s]*)?$/;

/** Reads every `*.md` of `directory` once, at start-up; the guides link to each other under `/docs/guides/`. */
export function loadGuides(directory: string, guidesPath: string): ReadonlyMap<string, Guide> {
  const sources = readdirSync(directory)
    .map((file) => GUIDE_FILE.exec(file)?.[1])
    .filter((name): name is string => name !== undefined)
    .sort()
    .map((name) => ({ name, markdown: readFileSync(path.join(directory, `${name}.md`), 'utf8') }));
  const names = new Set(sources.map((source) => source.name));
  const markdown = guideRenderer(names, guidesPath);
  return new Map(
    sources.map(({ name, markdown: text }) => [name, { name, title: firstHeading(text) ?? name, html: markdown.parse(text, { async: false }) }]),
  );
}

function guideRenderer(guideNames: ReadonlySet<string>, guidesPath: string): Marked {
  return new Marked({
    gfm: true,
    renderer: {
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, { tokens, depth, text }: Tokens.Heading) {
        return `<h${depth} id="${headingAnchor(text)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
      link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, { href, title, tokens }: Tokens.Link) {
        const text = this.parser.parseInline(tokens);
        const guide = GUIDE_LINK.exec(href);
        if (guide && guideNames.has(guide[1]!)) return `<a href="${guidesPath}/${guide[1]}${guide[2] ?? ''}">${text}</a>`;
        // A path of the repository (../deploy/README.md): not served, so its name is shown instead of a dead link.
        if (!/^(https?:|mailto:|#)/.test(href)) return `${text} (<code>${escapeHtml(href)}</code> in the repository)`;
        return `<a href="${escapeHtml(href)}"${title ? ` title="${escapeHtml(title)}"` : ''}>${text}</a>`;
      },
    },
  });
}

function firstHeading(markdown: string): string | undefined {
  return /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim();
}

/** GitHub's anchor of a heading, so that `page.md#anchor` links written for GitHub still land. */
export function headingAnchor(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
