/** One part of a multipart/form-data body. */
export interface FormPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** A small multipart/form-data reader (RFC 7578), enough for the OpenAI SDK's uploads. */
export function parseMultipart(body: Buffer, contentTypeHeader: string | undefined): FormPart[] | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentTypeHeader ?? '');
  const marker = boundary?.[1] ?? boundary?.[2];
  if (!/^multipart\/form-data/i.test(contentTypeHeader ?? '') || !marker) return undefined;
  const delimiter = Buffer.from(`--${marker.trim()}`);
  const parts: FormPart[] = [];
  let position = body.indexOf(delimiter);
  if (position < 0) return undefined;
  for (;;) {
    position += delimiter.length;
    if (body.subarray(position, position + 2).toString() === '--') return parts;
    position += 2; // CRLF after the delimiter
    const headerEnd = body.indexOf('\r\n\r\n', position);
    const next = body.indexOf(delimiter, position);
    if (headerEnd < 0 || next < 0) return undefined;
    const headers = body.subarray(position, headerEnd).toString('utf8');
    const data = body.subarray(headerEnd + 4, next - 2); // CRLF before the next delimiter
    const disposition = /content-disposition:([^\r\n]*)/i.exec(headers)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    const contentType = /content-type:\s*([^\r\n]*)/i.exec(headers)?.[1]?.trim();
    if (name !== undefined) {
      parts.push({ name, data, ...(filename !== undefined ? { filename } : {}), ...(contentType ? { contentType } : {}) });
    }
    position = next;
  }
}
