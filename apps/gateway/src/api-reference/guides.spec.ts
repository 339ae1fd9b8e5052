import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { headingAnchor, loadGuides } from './guides';

describe('loadGuides', () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'guides-'));
  writeFileSync(
    path.join(directory, 'first.md'),
    [
      '# First: a title',
      '',
      'See [the second](second.md), its [part](second.md#a-part), [nothing](missing.md), [the client](../libs/client/README.md), [the web](https://example.com/x) and [here](#first-a-title).',
      '',
      '## `GET /x` and <b>y</b>',
    ].join('\n'),
  );
  writeFileSync(path.join(directory, 'second.md'), 'No heading here.\n');
  writeFileSync(path.join(directory, 'notes.txt'), '# not a guide\n');
  const guides = loadGuides(directory, '/docs/guides');

  it('reads every Markdown file, titled by its first heading or else its name', () => {
    expect([...guides.keys()]).toEqual(['first', 'second']);
    expect(guides.get('first')!.title).toBe('First: a title');
    expect(guides.get('second')!.title).toBe('second');
  });

  it('points links to other guides at their pages, keeps web and anchor links, and names repository paths', () => {
    const html = guides.get('first')!.html;
    expect(html).toContain('<a href="/docs/guides/second">the second</a>');
    expect(html).toContain('<a href="/docs/guides/second#a-part">part</a>');
    expect(html).toContain('<a href="https://example.com/x">the web</a>');
    expect(html).toContain('<a href="#first-a-title">here</a>');
    expect(html).toContain('the client (<code>../libs/client/README.md</code> in the repository)');
    expect(html).toContain('nothing (<code>missing.md</code> in the repository)');
  });

  it('gives headings the anchors GitHub gives them', () => {
    expect(guides.get('first')!.html).toContain('<h1 id="first-a-title">First: a title</h1>');
    expect(headingAnchor('`GET /x` and <b>y</b>')).toBe('get-x-and-y');
    expect(headingAnchor('Decisions where the contract is silent')).toBe('decisions-where-the-contract-is-silent');
    expect(headingAnchor('Exactly once (10.4)')).toBe('exactly-once-104');
  });
});
