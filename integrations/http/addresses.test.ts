import { describe, expect, it } from '@jest/globals';
import { classifyAddress } from './addresses.js';

describe('classifyAddress', () => {
  it('knows loopback in every spelling the URL parser leaves', () => {
    for (const address of [
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '0:0:0:0:0:0:0:1',
    ]) {
      expect(classifyAddress(address)).toBe('loopback');
    }
  });

  it('knows private, shared and link-local networks, metadata services included', () => {
    expect(classifyAddress('10.0.0.1')).toBe('private');
    expect(classifyAddress('172.16.5.4')).toBe('private');
    expect(classifyAddress('172.31.255.255')).toBe('private');
    expect(classifyAddress('192.168.1.1')).toBe('private');
    expect(classifyAddress('fd00:ec2::254')).toBe('private');
    expect(classifyAddress('100.64.0.1')).toBe('shared');
    expect(classifyAddress('169.254.169.254')).toBe('link_local');
    expect(classifyAddress('fe80::1')).toBe('link_local');
    expect(classifyAddress('::ffff:169.254.169.254')).toBe('link_local');
    expect(classifyAddress('64:ff9b::a9fe:a9fe')).toBe('link_local');
  });

  it('refuses multicast and reserved ranges', () => {
    expect(classifyAddress('224.0.0.1')).toBe('multicast');
    expect(classifyAddress('ff02::1')).toBe('multicast');
    expect(classifyAddress('0.0.0.0')).toBe('reserved');
    expect(classifyAddress('::')).toBe('reserved');
    expect(classifyAddress('255.255.255.255')).toBe('reserved');
    expect(classifyAddress('2001:db8::1')).toBe('reserved');
  });

  it('takes everything else for public', () => {
    for (const address of [
      '93.184.215.14',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700::6810:84e5',
      '::ffff:8.8.8.8',
    ]) {
      expect(classifyAddress(address)).toBe('public');
    }
  });

  it('refuses text that is not an address', () => {
    expect(() => classifyAddress('localhost')).toThrow();
  });
});
