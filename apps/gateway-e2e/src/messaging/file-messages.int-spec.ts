import { randomUUID } from 'node:crypto';
import { type TestBusiness, contactSeed, createTestBusiness, integrationStack, minutesAgo, uniquePhone, storedCollection } from '@cmsg/testing';
import { contentOf, uploadAndConfirm } from '../files/file-fixtures';
import { lastRequestSeq, messageRequests, storedMessage, textRequestBody } from './messaging-fixtures';

/** Sends of confirmed uploads: /messages/text with file_uuid, and template media headers. */
describe('sending files', () => {
  let business: TestBusiness;
  const phone = uniquePhone();
  const conversation = randomUUID();
  const templates = { image: randomUUID(), video: randomUUID() };
  const files: Record<'jpeg' | 'pdf' | 'mp3' | 'mp4', string> = { jpeg: '', pdf: '', mp3: '', mp4: '' };
  const to = phone.replace(/\D/g, '');
  const signedLink = () => expect.stringMatching(new RegExp(`^${integrationStack().env['PUBLIC_BASE_URL']}/`));

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      const channel = seed.channels![0]!.public_key;
      seed.templates = [
        { uuid: templates.image, name: 'new_catalog', language: 'es', status: 'approved', category: 'marketing', body: 'Nuevo catálogo.', header_type: 'image', channel },
        { uuid: templates.video, name: 'new_video', language: 'es', status: 'approved', category: 'marketing', body: 'Mira el video.', header_type: 'video', channel },
      ];
      contactSeed(seed, { phone, conversation: { uuid: conversation, messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'hola', created_at: minutesAgo(5) }] } });
    });
    const upload = async (mimeType: string, name: string) => {
      const { confirmed } = await uploadAndConfirm(business, mimeType, contentOf(mimeType, 2048), name);
      if (confirmed.status !== 200) throw new Error(`confirm answered ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
      return confirmed.body.file.uuid as string;
    };
    files.jpeg = await upload('image/jpeg', 'catalogo.jpg');
    files.pdf = await upload('application/pdf', 'lista-de-precios.pdf');
    files.mp3 = await upload('audio/mpeg', 'saludo.mp3');
    files.mp4 = await upload('video/mp4', 'demo.mp4');
  });

  const send = (body: Record<string, unknown>) => business.api.post('/conversation/messages/text', { conversation: { uuid: conversation }, ...body });

  it('sends an image by its signed link with the text as caption', async () => {
    const since = await lastRequestSeq();
    const response = await send({ text: 'Mira el catálogo', file_uuid: files.jpeg });
    expect(response.status).toBe(201);
    const [request, ...more] = await messageRequests(business, since);
    expect(more).toEqual([]);
    expect(request!.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to,
      type: 'image',
      image: { link: signedLink(), caption: 'Mira el catálogo' },
    });
    expect(await storedMessage(response.body.message.uuid)).toMatchObject({ content_type: 'image', body: 'Mira el catálogo', status: 'sent' });
    // The link really serves the file.
    const download = await fetch((request!.body as { image: { link: string } }).image.link);
    expect([download.status, download.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
  });

  it('sends a document with its file name (documents cannot be transcribed here: the sender describes it)', async () => {
    const since = await lastRequestSeq();
    expect((await send({ text: 'Precios', file_uuid: files.pdf, transcription: 'Price list 2025.' })).status).toBe(201);
    const [request] = await messageRequests(business, since);
    expect((request!.body as { document: unknown }).document).toEqual({ link: signedLink(), caption: 'Precios', filename: 'lista-de-precios.pdf' });
  });

  it('sends the text of an audio as a second message (audio takes no caption)', async () => {
    const since = await lastRequestSeq();
    const response = await send({ text: 'Te mandé un audio', file_uuid: files.mp3 });
    expect(response.status).toBe(201);
    const requests = await messageRequests(business, since);
    expect(requests.map((request) => request.body)).toEqual([
      { messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'audio', audio: { link: signedLink() } },
      textRequestBody(phone, 'Te mandé un audio'),
    ]);
    expect((await storedMessage(response.body.message.uuid))!.content_type).toBe('audio');
  });

  it('needs a transcription for media it cannot transcribe (video): 422 TRANSCRIPTION_REQUIRED', async () => {
    const since = await lastRequestSeq();
    const refused = await send({ text: 'Demo', file_uuid: files.mp4 });
    expect([refused.status, refused.body.code]).toEqual([422, 'TRANSCRIPTION_REQUIRED']);
    expect(await messageRequests(business, since)).toEqual([]);
    const sent = await send({ text: 'Demo', file_uuid: files.mp4, transcription: 'A 10 second product demo.' });
    expect(sent.status).toBe(201);
    expect(await storedMessage(sent.body.message.uuid)).toMatchObject({ content_type: 'video', transcription: 'A 10 second product demo.' });
  });

  it('keeps captions within the chat platform limit of 1024 characters: 400 INVALID_REQUEST', async () => {
    const response = await send({ text: 'c'.repeat(1025), file_uuid: files.jpeg });
    expect([response.status, response.body.code]).toEqual([400, 'INVALID_REQUEST']);
    expect((await send({ text: 'c'.repeat(1024), file_uuid: files.jpeg })).status).toBe(201);
  });

  it('answers 404 FILE_NOT_FOUND for a file of another business', async () => {
    const other = await createTestBusiness();
    const { confirmed } = await uploadAndConfirm(other, 'image/jpeg', contentOf('image/jpeg', 1024), 'x.jpg');
    const response = await send({ text: 'x', file_uuid: confirmed.body.file.uuid });
    expect([response.status, response.body.code]).toEqual([404, 'FILE_NOT_FOUND']);
  });

  describe('template media headers', () => {
    const sendTemplate = (body: Record<string, unknown>) =>
      business.api.post('/conversation/messages/template', { conversation: { uuid: conversation }, ...body });

    it('sends the header media by its signed link', async () => {
      const since = await lastRequestSeq();
      const response = await sendTemplate({ template: { uuid: templates.image }, header: { type: 'image', file_uuid: files.jpeg } });
      expect(response.status).toBe(201);
      const [request] = await messageRequests(business, since);
      expect((request!.body as { template: unknown }).template).toEqual({
        name: 'new_catalog',
        language: { code: 'es' },
        components: [{ type: 'header', parameters: [{ type: 'image', image: { link: signedLink() } }] }],
      });
    });

    it('needs header.transcription for media it cannot transcribe: 422 TEMPLATE_HEADER_TRANSCRIPTION_MISSING', async () => {
      const refused = await sendTemplate({ template: { uuid: templates.video }, header: { type: 'video', file_uuid: files.mp4 } });
      expect([refused.status, refused.body.code]).toEqual([422, 'TEMPLATE_HEADER_TRANSCRIPTION_MISSING']);
      const sent = await sendTemplate({ template: { uuid: templates.video }, header: { type: 'video', file_uuid: files.mp4, transcription: 'A product demo.' } });
      expect(sent.status).toBe(201);
    });

    it('answers 404 FILE_NOT_FOUND for a header file that is not a confirmed upload', async () => {
      const response = await sendTemplate({ template: { uuid: templates.image }, header: { type: 'image', file_uuid: randomUUID() } });
      expect([response.status, response.body.code]).toEqual([404, 'FILE_NOT_FOUND']);
    });
  });

  it('stores nothing for refused file sends', async () => {
    expect(await storedCollection('messages').countDocuments({ conversation_id: conversation, is_from_customer: false, status: { $ne: 'sent' } })).toBe(0);
  });
});
