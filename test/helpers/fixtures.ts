/**
 * Test fixtures built in code: a tiny PNG, a .docx (Office Open XML parts zipped with fflate) and
 * a small website served on loopback with node:http.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { strToU8, zipSync } from 'fflate';

/** A 2×3 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEklEQVR4nGP4z8DwHwyBNAMDAFXTBfuqUCJSAAAAAElFTkSuQmCC',
  'base64',
);

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A .docx with a heading, formatted text, a hyperlink, a table and an embedded image. */
export function buildDocx(): Buffer {
  const paragraph = (content: string, style?: string) =>
    `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}${content}</w:p>`;
  const run = (text: string, props = '') =>
    `<w:r>${props ? `<w:rPr>${props}</w:rPr>` : ''}<w:t xml:space="preserve">${text}</w:t></w:r>`;
  const cell = (text: string) => `<w:tc>${paragraph(run(text))}</w:tc>`;
  const image =
    '<w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing">' +
    '<wp:extent cx="19050" cy="28575"/><wp:docPr id="1" name="Picture 1" descr="Pixel"/>' +
    '<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">' +
    '<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">' +
    '<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture">' +
    '<pic:nvPicPr><pic:cNvPr id="1" name="pixel.png"/><pic:cNvPicPr/></pic:nvPicPr>' +
    `<pic:blipFill><a:blip r:embed="rIdImg" xmlns:r="${R}"/></pic:blipFill><pic:spPr/>` +
    '</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>';
  const body = [
    paragraph(run('Word Title'), 'Heading1'),
    paragraph(run('Plain, ') + run('bold', '<w:b/>') + run(' and ') + run('italic', '<w:i/>') + run('.')),
    paragraph(`<w:hyperlink r:id="rIdLink">${run('a link')}</w:hyperlink>`),
    paragraph(run('Section'), 'Heading2'),
    `<w:tbl><w:tr>${cell('Name')}${cell('Value')}</w:tr><w:tr>${cell('a')}${cell('1')}</w:tr></w:tbl>`,
    paragraph(image),
  ].join('');
  const files = {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
      '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    'word/_rels/document.xml.rels':
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rIdStyles" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
      '<Relationship Id="rIdLink" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.com/docs" TargetMode="External"/>' +
      '<Relationship Id="rIdImg" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/pixel.png"/></Relationships>',
    'word/styles.xml':
      `<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="${W}">` +
      '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>' +
      '<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style></w:styles>',
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}" xmlns:r="${R}"><w:body>${body}</w:body></w:document>`,
  };
  const zipped: Record<string, Uint8Array> = { 'word/media/pixel.png': new Uint8Array(PNG) };
  for (const [name, text] of Object.entries(files)) zipped[name] = strToU8(text);
  return Buffer.from(zipSync(zipped));
}

/** A zip of Markdown, HTML and an image in folders, linking to each other relatively. */
export function buildZip(): Buffer {
  return Buffer.from(
    zipSync({
      'docs/README.md': strToU8('# Welcome\n\nStart with the [setup](guide/setup.md).\n'),
      'docs/guide/README.md': strToU8('# The guide\n\nGuide overview. Back [home](../README.md).\n'),
      'docs/guide/setup.md': strToU8(
        '---\ntitle: Setup steps\n---\nSee [the guide](README.md#top) and ![logo](img/logo.png).\n\n- one\n- two\n',
      ),
      'docs/guide/img/logo.png': new Uint8Array(PNG),
      'docs/notes.html': strToU8(
        '<html><head><title>Notes</title></head><body><p>Some <b>notes</b>.</p></body></html>',
      ),
      'docs/.hidden.md': strToU8('hidden'),
    }),
  );
}

export interface Site {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

/** Serves `pages` (path → [status, content type, body]) on 127.0.0.1; records every path requested. */
export async function serve(pages: Record<string, [number, string, string | Buffer]>): Promise<Site> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] as string;
    hits.push(path);
    const page = pages[path];
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const [status, type, body] = page;
    const headers: Record<string, string> = { 'content-type': type };
    if (status >= 300 && status < 400) headers.location = String(body);
    res.writeHead(status, headers).end(status >= 300 && status < 400 ? '' : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
