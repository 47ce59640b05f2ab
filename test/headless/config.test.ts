import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveApiKey } from '../../src/headless/api-key';
import { ConfigError, loadConfigFile, parseConfigText } from '../../src/headless/config-file';

const ADDR = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf';
const C_CHAIN = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
const BEAM = '2tmrrBo1Lgt1mzzvPSFt73kkQKFas5d1AP88tv9cicwoFp8BSn';

function problems(text: string) {
  try {
    parseConfigText(text, 'c.yaml');
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).problems;
  }
  throw new Error('expected the config to be refused');
}

describe('headless config file', () => {
  it('accepts a full config and fills defaults', () => {
    const c = parseConfigText(
      `dataSource: http://127.0.0.1:8080\nnetwork: fuji\npollIntervalSeconds: 10\napiKey: { env: TW_KEY }\nwatches:\n  - address: "${ADDR.toLowerCase()}"\n    label: bridge\nfeeds:\n  - name: out\n    filter: { sourceBlockchainId: "${C_CHAIN}" }\nalerts:\n  channels:\n    - { type: webhook, url: "http://127.0.0.1:1/x" }\n`,
      'c.yaml',
    );
    expect(c.dataSource).toEqual({ kind: 'custom', baseUrl: 'http://127.0.0.1:8080' });
    // The contract's schema checksums the address.
    expect(c.watches[0]?.address).toBe(ADDR);
    expect(c.alerts?.channels[0]).toMatchObject({ type: 'webhook', format: 'json' });
    expect(parseConfigText('{}', 'c.yaml')).toMatchObject({ dataSource: 'local', watches: [], feeds: [], relayers: [], routes: [] });
  });

  it('accepts a plan by name or as custom CU figures, and leaves it out when not given', () => {
    expect(parseConfigText('plan: growth\n', 'c.yaml').plan).toBe('growth');
    expect(parseConfigText('plan: auto\n', 'c.yaml').plan).toBe('auto');
    expect(parseConfigText('plan:\n  cuPerMinute: 9000\n  cuPerDay: 3000000\n', 'c.yaml').plan).toEqual({ cuPerMinute: 9000, cuPerDay: 3_000_000 });
    expect(parseConfigText('{}', 'c.yaml').plan).toBeUndefined();
  });

  it('takes how far back a new route’s first read goes (1 to 24 h), and leaves it to the default when not given', () => {
    expect(parseConfigText('routeHistoryHours: 24\n', 'c.yaml').routeHistoryHours).toBe(24);
    expect(parseConfigText('{}', 'c.yaml').routeHistoryHours).toBeUndefined();
  });

  it('accepts relayers and routes with labels and thresholds; route chains by name or EVM chain ID resolve to their blockchain ID', () => {
    const c = parseConfigText(
      `relayers:\n  - address: "${ADDR}"\n    label: ours\n    silentMinutes: 15\n    pendingMinutes: 5\nroutes:\n  - source: C-Chain\n    destination: "4337"\n    label: loop\n    backlogMinutes: 20\n    alert: false\n`,
      'c.yaml',
    );
    expect(c.relayers).toEqual([{ address: ADDR, label: 'ours', silentMinutes: 15, pendingMinutes: 5 }]);
    expect(c.routes).toEqual([{ source: C_CHAIN, destination: BEAM, label: 'loop', backlogMinutes: 20, alert: false }]);
  });

  // One case per rule: the line and field of each problem, all reported at once.
  const cases: [string, string, number, string, RegExp][] = [
    ['data source', 'dataSource: ftp://x', 1, 'dataSource', /must be "local", "avalanche" or a base URL/],
    ['network', 'network: moon', 1, 'network', /network must be one of mainnet, fuji, testnet/],
    ['poll interval', 'pollIntervalSeconds: 1', 1, 'pollIntervalSeconds', /at least 5 seconds/],
    ['stuck threshold', 'stuckThresholdMinutes: 0', 1, 'stuckThresholdMinutes', /at least 1 minute/],
    ['old budget', 'requestBudgetPerMinute: 240', 1, 'requestBudgetPerMinute', /replaced by plan/],
    ['plan name', 'plan: gold', 1, 'plan', /plan must be one of auto, unauthenticated, free, base, growth, pro, or \{ cuPerMinute, cuPerDay \}/],
    ['custom plan', 'plan:\n  cuPerMinute: 8000\n  cuPerDay: 10', 3, 'plan.cuPerDay', /at least 20 CU|at least its CU per minute/],
    ['key header', 'apiKeyHeader: "x y"', 1, 'apiKeyHeader', /plain HTTP header name/],
    ['key in the file', 'apiKey: sk-1234567890', 1, 'apiKey', /never goes in the config file/],
    ['two key sources', 'apiKey: { env: A, file: /k }', 1, 'apiKey', /exactly one of env, file or keychain/],
    ['unknown key', 'pollIntervalSecond: 30', 1, 'pollIntervalSecond', /unknown setting/],
    ['metrics listen', 'metrics:\n  listen: "127.0.0.1:70000"', 2, 'metrics.listen', /at most 65535/],
    ['bad address', `watches:\n  - label: x\n    address: "0x123"`, 3, 'watches[0].address', /./],
    ['unquoted hex', `watches:\n  - address: 0x123`, 2, 'watches[0].address', /put it in quotes/],
    ['bad checksum', `watches:\n  - address: "${ADDR.replace('b2784', 'B2784')}"`, 2, 'watches[0].address', /checksum/i],
    ['label too long', `watches:\n  - address: "${ADDR}"\n    label: ${'x'.repeat(81)}`, 3, 'watches[0].label', /at most 80/],
    ['duplicate watch', `watches:\n  - address: "${ADDR}"\n  - address: "${ADDR.toLowerCase()}"`, 3, 'watches[1].address', /already watched at watches\[0\]/],
    ['feed without filter', 'feeds:\n  - name: x\n    filter: {}', 3, 'feeds[0].filter', /at least one filter/],
    ['feed chain', 'feeds:\n  - name: x\n    filter:\n      sourceBlockchainId: nope', 4, 'feeds[0].filter.sourceBlockchainId', /./],
    ['channel type', 'alerts:\n  channels:\n    - type: pager\n      url: http://x', 3, 'alerts.channels[0].type', /"alertmanager" or "webhook"/],
    ['channel url', 'alerts:\n  channels:\n    - type: alertmanager\n      url: nope', 4, 'alerts.channels[0].url', /full URL/],
    [
      'webhook format',
      'alerts:\n  channels:\n    - type: webhook\n      url: http://x\n      format: teams',
      5,
      'alerts.channels[0].format',
      /"slack" or "json"/,
    ],
    ['message url', 'alerts:\n  messageUrl: http://x/', 2, 'alerts.messageUrl', /\{messageId\}/],
    ['relayer address', `relayers:\n  - label: r\n    address: "0x12"`, 3, 'relayers[0].address', /./],
    ['relayer checksum', `relayers:\n  - address: "${ADDR.replace('b2784', 'B2784')}"`, 2, 'relayers[0].address', /checksum/i],
    ['relayer silence 0', `relayers:\n  - address: "${ADDR}"\n    silentMinutes: 0`, 3, 'relayers[0].silentMinutes', /at least 1 minute/],
    ['relayer pending negative', `relayers:\n  - address: "${ADDR}"\n    pendingMinutes: -5`, 3, 'relayers[0].pendingMinutes', /at least 1 minute/],
    [
      'duplicate relayer',
      `relayers:\n  - address: "${ADDR}"\n  - address: "${ADDR.toLowerCase()}"`,
      3,
      'relayers[1].address',
      /already watched at relayers\[0\]/,
    ],
    ['default silence 0', 'relayerSilentMinutes: 0', 1, 'relayerSilentMinutes', /Silence threshold must be at least 1 minute/],
    ['default pending fraction', 'network: mainnet\nrelayerPendingMinutes: 1.5', 2, 'relayerPendingMinutes', /whole number/],
    ['default backlog negative', 'routeBacklogMinutes: -2', 1, 'routeBacklogMinutes', /at least 1 minute/],
    ['route history over a day', 'routeHistoryHours: 25', 1, 'routeHistoryHours', /Route history must be at most 24 hours/],
    ['route history fraction', 'routeHistoryHours: 1.5', 1, 'routeHistoryHours', /Route history must be a whole number/],
    ['route chain', 'routes:\n  - source: C-Chain\n    destination: Moonchain', 3, 'routes[0].destination', /"Moonchain" is not a known chain/],
    ['route same chain', 'routes:\n  - source: C-Chain\n    destination: C-Chain', 3, 'routes[0].destination', /a different destination chain/],
    ['route backlog 0', 'routes:\n  - source: C-Chain\n    destination: Beam\n    backlogMinutes: 0', 4, 'routes[0].backlogMinutes', /at least 1 minute/],
    [
      'route backlog negative',
      'routes:\n  - source: C-Chain\n    destination: Beam\n    backlogMinutes: -1',
      4,
      'routes[0].backlogMinutes',
      /at least 1 minute/,
    ],
    [
      'duplicate route',
      'routes:\n  - { source: C-Chain, destination: Beam }\n  - { source: c-chain, destination: beam }',
      3,
      'routes[1].destination',
      /already watched at routes\[0\]/,
    ],
    [
      // As the watcher adds it: a name and its cb58 ID are one chain (the start would refuse the second).
      'duplicate route, one chain by name and one by ID',
      'routes:\n  - { source: C-Chain, destination: Beam }\n  - { source: 2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5, destination: beam }',
      3,
      'routes[1].destination',
      /already watched at routes\[0\]/,
    ],
    [
      // An EVM chain ID is the chain it names (issue 41: the start took both, and counted the route twice).
      'duplicate route, one by EVM chain IDs',
      'routes:\n  - { source: C-Chain, destination: Beam }\n  - { source: "43114", destination: "4337" }',
      3,
      'routes[1].destination',
      /^This route \(C-Chain → Beam\) is already watched at routes\[0\]\.$/,
    ],
    [
      'unknown EVM chain ID',
      'routes:\n  - { source: C-Chain, destination: "777" }',
      2,
      'routes[0].destination',
      /^Destination chain: no chain the app knows has EVM chain ID 777 \(it knows C-Chain, Beam/,
    ],
    [
      // A route without a network is on the file's.
      'duplicate route, one on the file network and one saying it',
      'network: fuji\nroutes:\n  - { source: C-Chain, destination: Dispatch }\n  - { source: C-Chain, destination: Dispatch, network: testnet }',
      4,
      'routes[1].destination',
      /already watched at routes\[0\]/,
    ],
  ];
  it.each(cases)('refuses: %s', (_name, text, line, field, message) => {
    const p = problems(text);
    expect(p).toEqual(expect.arrayContaining([expect.objectContaining({ line, field, message: expect.stringMatching(message) })]));
  });

  it('refuses alert URLs to link-local and cloud metadata addresses at their line, saying how to allow them; alerts.allowLinkLocal: true allows them', () => {
    const text = [
      'alerts:',
      '  channels:',
      '    - { type: alertmanager, url: "http://127.0.0.1:9093" }',
      '    - { type: webhook, name: meta, url: "http://169.254.169.254/latest/meta-data/" }',
      '    - { type: webhook, name: decimal, url: "http://2852039166/hook" }',
      '    - { type: webhook, name: mapped, url: "http://[::ffff:169.254.169.254]/" }',
      '    - { type: webhook, name: link, url: "http://[fe80::1]:8080/" }',
      '    - { type: webhook, name: aws6, url: "http://[fd00:ec2::254]/" }',
      '    - { type: alertmanager, name: gcp, url: "http://metadata.google.internal" }',
      '',
    ].join('\n');
    const p = problems(text);
    expect(p.map((x) => [x.line, x.field])).toEqual([4, 5, 6, 7, 8, 9].map((line, i) => [line, `alerts.channels[${i + 1}].url`]));
    expect(p[0]?.message).toBe(
      "Webhook url points at 169.254.169.254, a link-local address, where cloud metadata services answer: refused, as such addresses can hand out a cloud machine's credentials. To send there anyway, set alerts.allowLinkLocal: true in the config file.",
    );
    expect(p[5]?.message).toMatch(/^Alertmanager url points at metadata\.google\.internal, a cloud metadata service: refused/);
    const allowed = parseConfigText(text.replace('alerts:\n', 'alerts:\n  allowLinkLocal: true\n'), 'c.yaml');
    expect(allowed.alerts?.channels).toHaveLength(7);
    expect(allowed.alerts?.allowLinkLocal).toBe(true);
    expect(parseConfigText('alerts: { channels: [] }', 'c.yaml').alerts?.allowLinkLocal).toBe(false);
  });

  it('reports every problem of a file at once, and YAML syntax errors with their line', () => {
    const p = problems(`network: moon\npollIntervalSeconds: 1\nwatches:\n  - address: "0x1"\n  - address: "${ADDR}"\n  - address: "${ADDR}"\n`);
    expect(p.map((x) => x.field)).toEqual(['network', 'pollIntervalSeconds', 'watches[0].address', 'watches[2].address']);
    const syntax = problems('network: [mainnet\npoll: 1\n');
    expect(syntax[0]?.line).toBeGreaterThan(0);
    const err = (() => {
      try {
        parseConfigText('network: moon', 'c.yaml');
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(err).toMatch(/c\.yaml has 1 problem:\n {2}line 1: network: /);
  });

  it('reports a construct left open at the line that opens it, not where the parser gave up', () => {
    const lines = ['dataDir: ./data', 'network: mainnet', 'watches:', `  - address: "${ADDR}`, '    label: treasury', '  - label: ops', 'feeds: []', ''];
    const quote = problems(lines.join('\n'));
    expect(quote).toHaveLength(1);
    expect(quote[0]).toMatchObject({
      line: 4,
      message: expect.stringMatching(/^Missing closing "quote: opened on this line and never closed \(the parser read on to line 8\)/),
    });
    expect(problems("a: 1\nb: 'unclosed\nc: 3\nd: 4\n")[0]).toMatchObject({ line: 2, message: expect.stringMatching(/Missing closing 'quote.*line 5/) });
    expect(problems('pollIntervalSeconds: 30\nnetwork: [mainnet\nfeeds: []\n')[0]).toMatchObject({ line: 2, message: expect.stringMatching(/end with a \]/) });
    expect(problems('notify: {new: true\nfeeds: []\n')[0]).toMatchObject({ line: 1, message: expect.stringMatching(/end with a \}/) });
    // A mistake the parser sees where it is keeps its own line.
    expect(problems('network: mainnet\nnetwork: fuji\n')[0]).toMatchObject({ line: 2, message: expect.stringMatching(/unique/) });
  });

  it('a valid file means the same read straight into values as read as a Document (labels that look like dates, numbers or booleans stay strings)', () => {
    // A valid file takes the light reader (js-yaml, core schema); a file with a problem is read again
    // as a Document for its lines. Both must agree on every value.
    const text = `network: mainnet\npollIntervalSeconds: 0x1e\nwatches:\n  - address: "${ADDR}"\n    label: "2024-01-01"\n  - address: "${ADDR.toLowerCase().replace('0x253b', '0x253c')}"\n    label: 'yes'\nfeeds:\n  - name: 0o17\n    filter: { sourceBlockchainId: "${C_CHAIN}" }\n`;
    expect(() => parseConfigText(text, 'c.yaml')).toThrow(ConfigError); // name 0o17 is the number 15 in YAML 1.2 core
    const ok = parseConfigText(text.replace('name: 0o17', 'name: "0o17"'), 'c.yaml');
    expect(ok.pollIntervalSeconds).toBe(30);
    expect(ok.watches.map((w) => w.label)).toEqual(['2024-01-01', 'yes']);
    expect(ok.feeds[0]?.name).toBe('0o17');
    // An unquoted date is a string in YAML 1.2's core schema for both readers.
    expect(parseConfigText(`watches:\n  - address: "${ADDR}"\n    label: 2024-01-01\n`, 'c.yaml').watches[0]?.label).toBe('2024-01-01');
  });

  it('a missing file is a clear error', () => {
    expect(() => loadConfigFile('/nonexistent/c.yaml')).toThrow(/cannot read the config file \(ENOENT\)/);
  });
});

describe('API key sources', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tw-key-'));
  const keyFile = (mode: number) => {
    const f = join(dir, `key-${mode.toString(8)}`);
    writeFileSync(f, 'k-1234567890abcdef\n');
    chmodSync(f, mode);
    return f;
  };

  it('reads the key from an environment variable, or from a file only its owner can read', () => {
    expect(resolveApiKey({ env: 'TW_KEY' }, { env: { TW_KEY: 'k-abcdefghij' } })).toMatchObject({ kind: 'session', key: 'k-abcdefghij' });
    expect(resolveApiKey({ file: keyFile(0o600) })).toMatchObject({ kind: 'session', key: 'k-1234567890abcdef' });
    expect(resolveApiKey({ file: keyFile(0o400) })).toMatchObject({ kind: 'session' });
    expect(resolveApiKey(undefined)).toEqual({ kind: 'none' });
  });

  it('refuses a key file others can read, a missing file, an empty variable, a malformed key', () => {
    expect(() => resolveApiKey({ file: keyFile(0o644) })).toThrow(/Refusing the API key file .*others can read it \(mode 644\).*chmod 600/);
    expect(() => resolveApiKey({ file: keyFile(0o640) })).toThrow(/others can read it \(mode 640\)/);
    expect(() => resolveApiKey({ file: join(dir, 'absent') })).toThrow(/Cannot read the API key file .*ENOENT/);
    expect(() => resolveApiKey({ env: 'TW_KEY' }, { env: {} })).toThrow(/TW_KEY, but that environment variable is empty or not set/);
    expect(() => resolveApiKey({ env: 'TW_KEY' }, { env: { TW_KEY: 'short' } })).toThrow(/not usable: API key looks too short/);
  });
});
