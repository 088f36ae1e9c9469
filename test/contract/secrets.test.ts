/** The one place secrets are masked (src/contract/secrets.ts): keys and URL passwords. */
import { describe, expect, it } from 'vitest';
import { hasPassword, maskKey, maskUrl, redactSecrets, withoutPassword } from '../../src/contract/secrets.js';

describe('secrets', () => {
  it('masks a key to its last four characters, a short one whole', () => {
    expect(maskKey('abcdefghijkl-1234')).toBe('••••1234');
    expect(maskKey('short-key')).toBe('••••');
  });

  it('masks the password of proxy and store URLs, keeping the user and the rest', () => {
    expect(maskUrl('http://ana:s3cret@proxy.corp:3128')).toBe('http://ana:••••@proxy.corp:3128');
    expect(maskUrl('postgres://pla:p%40ss:w0rd@db.internal:5432/pla?sslmode=require')).toBe('postgres://pla:••••@db.internal:5432/pla?sslmode=require');
    expect(maskUrl('postgres://pla@db/pla')).toBe('postgres://pla@db/pla');
    expect(maskUrl('http://proxy.corp:3128')).toBe('http://proxy.corp:3128');
  });

  it('splits user and password as URL does: a raw @ in either never shows the password', () => {
    // The password runs to the last @ of the authority (new URL() agrees).
    expect(maskUrl('http://ana:p@ss-w0rd@127.0.0.1:3128')).toBe('http://ana:••••@127.0.0.1:3128');
    expect(new URL('http://ana:p@ss-w0rd@127.0.0.1:3128').host).toBe('127.0.0.1:3128');
    // A user name with an @ (admin@server) keeps it; the password is still masked.
    expect(maskUrl('postgres://admin@myserver:Sup3rSecret@127.0.0.1:5432/pla')).toBe('postgres://admin@myserver:••••@127.0.0.1:5432/pla');
    expect(withoutPassword('postgres://admin@myserver:Sup3rSecret@db/pla')).toBe('postgres://admin@myserver@db/pla');
    expect(hasPassword('postgres://admin@myserver:Sup3rSecret@db/pla')).toBe(true);
    // An @ in the query is not part of the authority.
    expect(maskUrl('http://ana:pw@proxy.corp:3128?x=a@b')).toBe('http://ana:••••@proxy.corp:3128?x=a@b');
    expect(maskUrl('http://proxy.corp:3128?token=a@b')).toBe('http://proxy.corp:3128?token=a@b');
  });

  it('leaves the password out for exports, and tells whether there is one', () => {
    expect(withoutPassword('postgres://pla:s3cret@db/pla')).toBe('postgres://pla@db/pla');
    expect(hasPassword('postgres://pla:s3cret@db/pla')).toBe(true);
    expect(hasPassword('postgres://pla@db/pla')).toBe(false);
  });

  it('redacts every occurrence of a secret in a text', () => {
    expect(redactSecrets('key abcdefghijkl-1234 twice abcdefghijkl-1234', ['abcdefghijkl-1234'])).toBe('key ••••1234 twice ••••1234');
  });

  it('masks a password given in the query, and leaves it out of exports, other parameters byte for byte', () => {
    expect(maskUrl('postgres://pla@db/pla?sslmode=require&password=QSECRET&options=-c%20x')).toBe(
      'postgres://pla@db/pla?sslmode=require&password=••••&options=-c%20x',
    );
    expect(maskUrl('postgres://pla@db/pla?SSLPassword=k3y')).toBe('postgres://pla@db/pla?SSLPassword=••••');
    expect(withoutPassword('postgres://pla@db/pla?password=QSECRET&sslmode=require')).toBe('postgres://pla@db/pla?sslmode=require');
    expect(withoutPassword('postgres://pla@db/pla?password=QSECRET')).toBe('postgres://pla@db/pla');
    expect(hasPassword('postgres://pla@db/pla?password=QSECRET')).toBe(true);
    expect(hasPassword('postgres://pla@db/pla?sslmode=require')).toBe(false);
  });

  it('masks a URL that does not parse from its scheme to its last @', () => {
    expect(maskUrl('postgres://pla:s3cr#t@127.0.0.1:5432/pla')).toBe('postgres://••••@127.0.0.1:5432/pla');
    expect(maskUrl('postgres://pla:s3/cr3t@127.0.0.1/pla')).toBe('postgres://••••@127.0.0.1/pla');
    expect(maskUrl('postgres://pla:ab?cdSECRET@127.0.0.1/pla')).toBe('postgres://••••@127.0.0.1/pla');
  });
});
