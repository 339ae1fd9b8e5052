import { isPublicAddress } from './public-address';
import { WebhookUrlRefusedError, checkWebhookUrl } from './webhook-url-policy';

/** A resolver answering from a table, as DNS would. */
const resolver = (table: Record<string, string[]>) => async (host: string) => {
  const addresses = table[host];
  if (!addresses) throw new WebhookUrlRefusedError(`the host ${host} does not resolve (ENOTFOUND)`);
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

const dns = resolver({
  'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'rebind.example.com': ['93.184.215.14', '10.0.0.5'],
  'internal.example.com': ['192.168.1.20'],
  'metadata.example.com': ['169.254.169.254'],
  'v6-local.example.com': ['fd00::1'],
});

describe('non-public addresses', () => {
  it.each([
    '127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.0.1', '169.254.169.254', '0.0.0.0', '100.64.0.1',
    '224.0.0.1', '255.255.255.255', '::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '64:ff9b::a00:1', 'not an ip',
  ])('%s is not public', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::ffff:8.8.8.8'])('%s is public', (address) => expect(isPublicAddress(address)).toBe(true));
});

describe('checkWebhookUrl without WEBHOOK_ALLOW_PRIVATE_URLS', () => {
  const policy = { allowPrivate: false, resolve: dns };

  it('accepts https to a host whose every address is public', async () => {
    await expect(checkWebhookUrl('https://hooks.example.com/cmsg?x=1', policy)).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookUrl('https://93.184.215.14:8443/hook', policy)).resolves.toBeInstanceOf(URL);
  });

  it.each([
    ['http to a public host', 'http://hooks.example.com/cmsg', /must use https/],
    ['a loopback IP', 'https://127.0.0.1/hook', /non-public/],
    ['an IPv6 loopback', 'https://[::1]/hook', /non-public/],
    ['a private IP', 'https://10.0.0.8/hook', /non-public/],
    ['a name resolving to a private IP', 'https://internal.example.com/hook', /192\.168\.1\.20/],
    ['a name with one private address among public ones', 'https://rebind.example.com/hook', /10\.0\.0\.5/],
    ['link-local (cloud metadata)', 'https://metadata.example.com/latest', /169\.254\.169\.254/],
    ['a unique local IPv6 name', 'https://v6-local.example.com/', /fd00::1/],
    ['an unresolvable host', 'https://nowhere.example.com/', /does not resolve/],
    ['credentials in the URL', 'https://user:pw@hooks.example.com/', /credentials/],
    ['not a URL', 'hooks.example.com/cmsg', /absolute URL/],
    ['another scheme', 'ftp://hooks.example.com/', /must use https/],
  ])('refuses %s', async (_case, url, reason) => {
    await expect(checkWebhookUrl(url, policy)).rejects.toThrow(reason);
  });

  it('refuses localhost, resolved by the system resolver to 127.0.0.1', async () => {
    await expect(checkWebhookUrl('https://localhost/hook', { allowPrivate: false })).rejects.toThrow(/localhost resolves to 127\.0\.0\.1/);
  });
});

describe('checkWebhookUrl with WEBHOOK_ALLOW_PRIVATE_URLS=true', () => {
  const policy = { allowPrivate: true, resolve: dns };

  it('accepts http and https to loopback and private hosts', async () => {
    await expect(checkWebhookUrl('http://127.0.0.1:9999/hook', policy)).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookUrl('http://internal.example.com/hook', policy)).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookUrl('https://10.0.0.8/hook', policy)).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookUrl('http://localhost:8080/hook', { allowPrivate: true })).resolves.toBeInstanceOf(URL);
  });

  it('still needs https for a public host', async () => {
    await expect(checkWebhookUrl('http://hooks.example.com/cmsg', policy)).rejects.toThrow(/public .*needs https/);
    await expect(checkWebhookUrl('http://93.184.215.14/hook', policy)).rejects.toThrow(/needs https/);
    await expect(checkWebhookUrl('http://rebind.example.com/hook', policy)).rejects.toThrow(/needs https/);
    await expect(checkWebhookUrl('https://hooks.example.com/cmsg', policy)).resolves.toBeInstanceOf(URL);
  });
});
