import { describe, expect, it } from 'vitest';
import { refusedAlertUrl, refusedHost } from '../../src/shared/alert-targets';

describe('alert targets', () => {
  it('refuses link-local and cloud metadata addresses in every spelling the URL parser accepts', () => {
    const refused = [
      'http://169.254.169.254/latest/meta-data/',
      'http://169.254.169.254./',
      'http://2852039166/', // decimal
      'http://0xa9fea9fe/', // hex
      'http://0251.0376.0251.0376/', // octal
      'http://169.254.43518/', // two parts
      'http://169.254.170.2/v2/credentials', // ECS task credentials
      'http://100.100.100.200/latest/meta-data', // Alibaba Cloud
      'http://[fe80::1]:9093',
      'http://[FEBF:ffff::1]/',
      'http://[::ffff:169.254.169.254]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://[::169.254.169.254]/',
      'http://[64:ff9b::169.254.169.254]/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://METADATA.GOOGLE.INTERNAL./',
      'http://metadata/',
      'https://metadata.azure.com/metadata/instance',
      'http://instance-data/latest/',
    ];
    for (const url of refused)
      expect(refusedAlertUrl(url, 'Webhook url', 'config'), url).toMatch(
        /^Webhook url points at .+: refused, .* set alerts\.allowLinkLocal: true in the config file\.$/,
      );
    expect(refusedAlertUrl('http://2852039166/', 'Webhook url', 'settings')).toBe(
      'Webhook url points at 169.254.169.254, a link-local address, where cloud metadata services answer: refused, as such addresses can hand out a cloud machine\'s credentials. To send there anyway, tick "Allow link-local and metadata addresses" under Settings → Alert channels.',
    );
  });

  it('allows loopback, private and public receivers', () => {
    for (const url of [
      'http://127.0.0.1:9093',
      'http://localhost:9093',
      'http://[::1]:9093',
      'http://10.0.0.5:9093',
      'http://192.168.1.20/hook',
      'http://[fd12:3456::1]/',
      'http://[fec0::1]/',
      'https://hooks.slack.com/services/T000/B000/XXXX',
      'http://169.253.255.255/',
      'http://metadata.example.com/',
    ]) {
      expect(refusedAlertUrl(url, 'Webhook url', 'config'), url).toBeNull();
    }
  });

  it('checks addresses as a resolver returns them (IPv4, IPv6 with a zone, mapped IPv4)', () => {
    expect(refusedHost('169.254.1.1')).toMatch(/link-local/);
    expect(refusedHost('fe80::1%eth0')).toMatch(/link-local/);
    expect(refusedHost('::ffff:169.254.169.254')).toMatch(/link-local/);
    expect(refusedHost('fd00:ec2::254')).toMatch(/metadata/);
    expect(refusedHost('127.0.0.1')).toBeNull();
    expect(refusedHost('::ffff:127.0.0.1')).toBeNull();
    expect(refusedHost('::1')).toBeNull();
    expect(refusedHost('2001:db8::1')).toBeNull();
  });
});
