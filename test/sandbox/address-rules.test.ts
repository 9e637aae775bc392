// The merchant's reading of IP literals in callback and image URLs (contract §7.1), as written.
import { describe, expect, it } from 'vitest';
import { isIpLiteral, isLoopbackHost, isPublicIpLiteral } from '../../src/sandbox/domain/address-rules';
import { isAllowedCallbackUrl, isPublicHttpsUrl, isPublicImageUrl } from '../../src/sandbox/domain/url-rules';

describe('sandbox address rules', () => {
  it('takes only global unicast literals as public, IPv4 carried in IPv6 never', () => {
    for (const host of ['1.1.1.1', '8.8.8.8', '[2606:4700:4700::1111]', '2001:4860:4860::8888']) expect(isPublicIpLiteral(host), host).toBe(true);
    for (const host of [
      '198.18.0.1',
      '203.0.113.7',
      '100.64.0.1',
      '192.0.0.8',
      '[64:ff9b::a00:1]',
      '[64:ff9b::808:808]',
      '[2002:c0a8:101::1]',
      '[::127.0.0.1]',
      '[::ffff:8.8.8.8]',
      '[::7f00:1]',
      '[2001:db8::1]',
      '[3fff::1]',
      '[4000::1]',
      '[fe80::1%25eth0]',
      'fe80::1%eth0',
      'img.example.com',
    ]) {
      expect(isPublicIpLiteral(host), host).toBe(false);
    }
    expect(isIpLiteral('[::1]')).toBe(true);
    expect(isIpLiteral('img.example.com')).toBe(false);
  });

  it('recognises loopback hosts on the same library', () => {
    for (const host of ['127.0.0.1', '127.255.255.254', '::1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', 'hooks.localhost']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['[::ffff:10.0.0.1]', '[64:ff9b::7f00:1]', '126.255.255.255', '0x7f.1', '[::2]']) expect(isLoopbackHost(host), host).toBe(false);
  });

  it('judges callback and image URLs with them', () => {
    expect(isPublicImageUrl('https://198.18.0.1/a.png')).toBe(false);
    expect(isPublicImageUrl('https://[2002:c0a8:101::1]/a.png')).toBe(false);
    expect(isPublicImageUrl('https://8.8.8.8/a.png')).toBe(true);
    expect(isPublicHttpsUrl('https://[64:ff9b::a00:1]/cb')).toBe(false);
    expect(isAllowedCallbackUrl('http://[::ffff:127.0.0.1]:8080/cb', 'loopback')).toBe(true);
    expect(isAllowedCallbackUrl('http://[::ffff:127.0.0.1]:8080/cb', 'strict')).toBe(false);
  });
});
