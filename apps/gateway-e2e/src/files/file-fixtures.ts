import { connect } from 'node:net';
import type { TestBusiness } from '@cmsg/testing';

const MIB = 1024 * 1024;

/** Content whose first bytes sniff as the type, padded to `size`. */
export function contentOf(mimeType: string, size: number): Buffer {
  const heads: Record<string, Buffer> = {
    'image/jpeg': Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
    'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    'image/webp': Buffer.concat([Buffer.from('RIFF'), Buffer.from([1, 0, 0, 0]), Buffer.from('WEBPVP8 ')]),
    'video/mp4': Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom')]),
    'video/3gpp': Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftyp3gp5')]),
    'audio/mp4': Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypM4A ')]),
    'audio/aac': Buffer.from([0xff, 0xf1, 0x50, 0x80]),
    'audio/mpeg': Buffer.concat([Buffer.from('ID3'), Buffer.from([4, 0, 0])]),
    'audio/amr': Buffer.from('#!AMR\n'),
    'audio/ogg': Buffer.concat([Buffer.from('OggS'), Buffer.from([0, 2])]),
    'application/pdf': Buffer.from('%PDF-1.7\n'),
    'application/msword': Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document': zipHead('word/document.xml'),
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': zipHead('xl/workbook.xml'),
    'application/vnd.openxmlformats-officedocument.presentationml.presentation': zipHead('ppt/presentation.xml'),
    'text/plain': Buffer.from('Lista de precios\n'),
  };
  const head = heads[mimeType];
  if (!head) throw new Error(`no sample content for ${mimeType}`);
  const fill = mimeType === 'text/plain' ? 0x61 : 0x00;
  return Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length), fill)]).subarray(0, size);
}

function zipHead(entryName: string): Buffer {
  return Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(26), Buffer.from('[Content_Types].xml'), Buffer.alloc(30), Buffer.from(entryName)]);
}

export const CAPS = { image: 5 * MIB, video: 16 * MIB, audio: 16 * MIB, document: 100 * MIB, text: 5 * MIB };

export function requestUpload(business: TestBusiness, file: { file_name?: string; mime_type: string; size: number }) {
  return business.api.post('/files/request-upload', { module: 'api_messages', file_name: file.file_name ?? 'file.bin', ...file });
}

export function confirm(business: TestBusiness, fileUuid: string) {
  return business.api.post('/files/confirm', { file_uuid: fileUuid });
}

export async function put(url: string, body: Buffer, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { method: 'PUT', body, headers: { 'content-type': 'application/octet-stream', ...headers } });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** request-upload, PUT, confirm: the whole happy path of one file. */
export async function uploadAndConfirm(business: TestBusiness, mimeType: string, content: Buffer, fileName = 'file.bin') {
  const requested = await requestUpload(business, { file_name: fileName, mime_type: mimeType, size: content.length });
  if (requested.status !== 201) throw new Error(`request-upload answered ${requested.status} ${JSON.stringify(requested.body)}`);
  const uploaded = await put(requested.body.upload.url, content);
  if (uploaded.status !== 204) throw new Error(`PUT answered ${uploaded.status} ${JSON.stringify(uploaded.body)}`);
  return { requested, confirmed: await confirm(business, requested.body.file.uuid) };
}

/**
 * A PUT whose connection drops mid-body: Content-Length promises `declared` bytes, `sent` arrive,
 * then the socket closes (what a client losing its network does).
 */
export async function brokenPut(url: string, declared: number, sent: Buffer): Promise<void> {
  const target = new URL(url);
  await new Promise<void>((resolve, reject) => {
    const socket = connect(Number(target.port), target.hostname, () => {
      socket.write(`PUT ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/octet-stream\r\nContent-Length: ${declared}\r\n\r\n`);
      socket.write(sent, () => setTimeout(() => socket.destroy(), 300));
    });
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
}
