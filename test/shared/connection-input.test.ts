// The connect input rules both the form and core apply: https only (the key never over plain http),
// the interface's path, and a CA that is only PEM certificate blocks within the size bound.
import { describe, expect, it } from 'vitest';
import { createCertificateAuthority } from '../../src/sandbox/tls/certificate-builder';
import { addressProblem, caCertProblem, completeBaseUrl, fieldOfProblem, MAX_CA_CERT_PEM_CHARS } from '../../src/shared/connection-input';

const ca = await createCertificateAuthority();

describe('connect address', () => {
  it('accepts an https address of the interface, and names each other mistake', () => {
    expect(addressProblem('https://api.example.cn/openapi/v1')).toBeNull();
    expect(addressProblem(' https://api.example.cn:8443/openapi/v1/ ')).toBeNull();
    expect(addressProblem('http://api.example.cn/openapi/v1')).toBe('addressInsecure');
    expect(addressProblem('ftp://api.example.cn/openapi/v1')).toBe('addressInsecure');
    expect(addressProblem('not a url')).toBe('addressNotUrl');
    expect(addressProblem('https://api.example.cn/v2')).toBe('addressPath');
    expect(fieldOfProblem('addressInsecure')).toBe('baseUrl');
  });
});

describe('an address typed without https:// (issue 26)', () => {
  it('takes a bare domain, host:port, an IP literal or localhost as https, completing the path', () => {
    expect(completeBaseUrl('api.example-merchant.cn')).toBe('https://api.example-merchant.cn/openapi/v1');
    expect(completeBaseUrl(' api.example-merchant.cn/ ')).toBe('https://api.example-merchant.cn/openapi/v1');
    expect(completeBaseUrl('shop.example.cn:8443')).toBe('https://shop.example.cn:8443/openapi/v1');
    expect(completeBaseUrl('api.example.cn/openapi/v1')).toBe('https://api.example.cn/openapi/v1');
    expect(completeBaseUrl('127.0.0.1:8443')).toBe('https://127.0.0.1:8443/openapi/v1');
    expect(completeBaseUrl('[::1]:8443')).toBe('https://[::1]:8443/openapi/v1');
    expect(completeBaseUrl('localhost:8443')).toBe('https://localhost:8443/openapi/v1');
    expect(addressProblem('商户.中国')).toBeNull();
    expect(completeBaseUrl('xn--fiqs8s.xn--fiqs8s')).toBe('https://xn--fiqs8s.xn--fiqs8s/openapi/v1');
    for (const bare of ['api.example-merchant.cn', 'API.Example.CN:443', 'shop.example.cn/openapi/v1/', '10.0.0.7:8443']) expect(addressProblem(bare), bare).toBeNull();
    expect(addressProblem('api.example.cn/v2')).toBe('addressPath');
  });

  it('still refuses garbage, a user name, one bare word and plain http', () => {
    for (const garbage of ['not a url', 'example', 'api', 'api.example.cn extra', 'user@api.example.cn', '://api.example.cn', 'http//api.example.cn', '.example.cn', 'api..example.cn', 'api.example.123', '这不是网址', 'example.cn:99999'])
      expect(addressProblem(garbage), garbage).toBe('addressNotUrl');
    expect(addressProblem('http://api.example-merchant.cn')).toBe('addressInsecure');
    expect(addressProblem('http://127.0.0.1:8443')).toBe('addressInsecure');
    // Read as a URL of the scheme "user:", so refused as not https, never sent.
    expect(addressProblem('user:pw@api.example.cn')).toBe('addressInsecure');
    expect(addressProblem('ftp://api.example-merchant.cn')).toBe('addressInsecure');
  });
});

describe('CA certificate', () => {
  it('accepts one certificate or a bundle, with CRLF or stray blank lines', () => {
    expect(caCertProblem(ca.certPem)).toBeNull();
    expect(caCertProblem(`${ca.certPem}\n\n${ca.certPem}`)).toBeNull();
    const lf = ca.certPem.replace(/\r\n/g, '\n');
    expect(caCertProblem(lf)).toBeNull();
    expect(caCertProblem(lf.replace(/\n/g, '\r\n'))).toBeNull();
  });

  it('refuses a private key, a certificate with a key pasted after it, text, and an oversized file', () => {
    expect(caCertProblem(ca.keyPem)).toBe('caCertNotPem');
    expect(caCertProblem(`${ca.certPem}${ca.keyPem}`)).toBe('caCertNotPem');
    expect(caCertProblem('hello')).toBe('caCertNotPem');
    expect(caCertProblem(ca.certPem.slice(0, 200))).toBe('caCertNotPem');
    expect(caCertProblem(' '.repeat(MAX_CA_CERT_PEM_CHARS + 1))).toBe('caCertTooLarge');
    expect(fieldOfProblem('caCertNotPem')).toBe('caCertPem');
  });
});

describe('completeBaseUrl', () => {
  it('adds the interface base path when only the domain was typed', () => {
    expect(completeBaseUrl(' https://shop.example.cn ')).toBe('https://shop.example.cn/openapi/v1');
    expect(completeBaseUrl('https://shop.example.cn/')).toBe('https://shop.example.cn/openapi/v1');
    expect(completeBaseUrl('https://127.0.0.1:8443')).toBe('https://127.0.0.1:8443/openapi/v1');
    expect(addressProblem('https://shop.example.cn')).toBeNull();
  });

  it('keeps any other path as typed (without trailing slashes), for addressProblem to judge', () => {
    expect(completeBaseUrl('https://shop.example.cn/openapi/v1/')).toBe('https://shop.example.cn/openapi/v1');
    expect(completeBaseUrl('https://shop.example.cn/api')).toBe('https://shop.example.cn/api');
    expect(addressProblem('https://shop.example.cn/api')).toBe('addressPath');
    expect(completeBaseUrl('https://shop.example.cn/?x=1')).toBe('https://shop.example.cn/?x=1');
    expect(completeBaseUrl('not a url')).toBe('not a url');
  });
});
