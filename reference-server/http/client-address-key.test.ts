import { ipKeyGenerator } from 'express-rate-limit';
import { describe, expect, it } from 'vitest';
import { clientAddressKey } from './client-address-key.js';

describe('clientAddressKey', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::1.2.3.4',
    '::ffff:7f00:1',
    '2001:db8::1',
    '2001:db8:abcd:12ff::1',
    '2001:0db8:abcd:00ff:0000:0000:0000:0001',
    '2001:db8:abcd:ff::',
    'fe80::1%eth0',
    'fe80::abcd:1234:5678:9abc',
    '1:2:3:4:5:6:7:8',
    '0:0:1:0:0:0:0:1',
    '1:0:0:0:1:0:0:1',
    '64:ff9b::192.0.2.33',
    'ff02::1:ff00:1',
    '2001:db8:0:0:1::',
    'not an address',
  ])('keys %s as express-rate-limit does', (address) => {
    expect(clientAddressKey(address)).toBe(ipKeyGenerator(address));
  });
});
