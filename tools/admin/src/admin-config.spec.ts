import { loadAdminConfig, redactUri, withDatabase, withDefaultDatabase } from './admin-config';

describe('admin config', () => {
  it.each([
    ['mongodb://127.0.0.1:27117/', 'mongodb://127.0.0.1:27117/cmsg'],
    ['mongodb://127.0.0.1:27117', 'mongodb://127.0.0.1:27117/cmsg'],
    ['mongodb://h1:1,h2:2/?replicaSet=rs0', 'mongodb://h1:1,h2:2/cmsg?replicaSet=rs0'],
    ['mongodb://h1:1?tls=true', 'mongodb://h1:1/cmsg?tls=true'],
    ['mongodb://127.0.0.1:27117/other', 'mongodb://127.0.0.1:27117/other'],
    ['mongodb+srv://u:p@cluster.example.net/prod?w=majority', 'mongodb+srv://u:p@cluster.example.net/prod?w=majority'],
  ])('gives %s a database', (uri, expected) => {
    expect(withDefaultDatabase(uri, 'cmsg')).toBe(expected);
  });

  it('replaces a database', () => {
    expect(withDatabase('mongodb://u:p@h:1/cmsg?x=1', 'other')).toBe('mongodb://u:p@h:1/other?x=1');
  });

  it('reads MONGODB_URI with the shared default', () => {
    expect(loadAdminConfig({}).mongodbUri).toBe('mongodb://127.0.0.1:27117/cmsg');
    expect(loadAdminConfig({ MONGODB_URI: 'mongodb://db:27017/' }).mongodbUri).toBe('mongodb://db:27017/cmsg');
  });

  it('reads REDIS_URL with the shared default', () => {
    expect(loadAdminConfig({}).redisUrl).toBe('redis://127.0.0.1:16379');
    expect(loadAdminConfig({ REDIS_URL: 'redis://cache:6379' }).redisUrl).toBe('redis://cache:6379');
  });

  it('hides passwords in messages', () => {
    expect(redactUri('mongodb://admin:s3cret@db:27017/cmsg')).toBe('mongodb://admin:***@db:27017/cmsg');
    expect(redactUri('mongodb://db:27017/cmsg')).toBe('mongodb://db:27017/cmsg');
    expect(redactUri('redis://:s3cret@cache:6379')).toBe('redis://:***@cache:6379');
  });
});
