/**
 * Compiles the real TeleporterMessenger (test/fixtures/icm-contracts, unchanged) and this folder's
 * helper contracts as icm-contracts builds it (foundry.toml there): solc 0.8.25, the version its
 * pragma pins (npm `solc-0.8.25`), optimizer 200 runs, EVM shanghai, no metadata hash, with
 * OpenZeppelin Contracts 5.0.2 from npm for its `@openzeppelin/contracts@5.0.2/` imports. Once per
 * process; the bytecode is never committed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Abi, Hex } from 'viem';

const require_ = createRequire(__filename);
/** solc-js 0.8.25 ships no types: the two calls used here. */
const solc = require_('solc-0.8.25') as {
  version(): string;
  compile(input: string, callbacks: { import(path: string): { contents: string } | { error: string } }): string;
};
const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'icm-contracts', 'contracts');
/** icm-contracts' remappings (its remappings.txt), to where the files are here. */
const REMAPPINGS: [string, string][] = [
  ['@openzeppelin/contracts@5.0.2/', `${dirname(require_.resolve('@openzeppelin/contracts/package.json'))}/`],
  ['@subnet-evm/', join(FIXTURE, 'subnet-evm') + '/'],
  ['@utilities/', join(FIXTURE, 'utilities') + '/'],
  ['teleporter/', join(FIXTURE, 'teleporter') + '/'],
];

/** The units compiled (each imports the rest). */
const UNITS = ['teleporter/TeleporterMessenger.sol', 'WarpStandIn.sol', 'FlakyReceiver.sol', 'FeeToken.sol'] as const;

export interface Compiled {
  abi: Abi;
  bytecode: Hex;
  /** The runtime code (what anvil_setCode installs). */
  deployed: Hex;
}

export type ContractName = 'TeleporterMessenger' | 'WarpStandIn' | 'FlakyReceiver' | 'FeeToken';

function read(path: string): { contents: string } | { error: string } {
  const mapped = REMAPPINGS.find(([from]) => path.startsWith(from));
  const file = mapped ? mapped[1] + path.slice(mapped[0].length) : join(__dirname, path);
  try {
    return { contents: readFileSync(file, 'utf8') };
  } catch (e) {
    return { error: `${path}: ${(e as Error).message}` };
  }
}

let cached: Record<ContractName, Compiled> | null = null;

export function compileRealMessenger(): Record<ContractName, Compiled> {
  if (cached) return cached;
  if (!solc.version().startsWith('0.8.25+')) throw new Error(`solc-0.8.25 is solc ${solc.version()}: run npm install`);
  const sources = Object.fromEntries(UNITS.map((u) => [u, { content: (read(u) as { contents: string }).contents }]));
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'shanghai',
      metadata: { bytecodeHash: 'none' },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input), { import: read })) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`the real messenger does not compile:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const of = (unit: string, name: ContractName): Compiled => {
    const c = out.contracts[unit]![name]!;
    return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}`, deployed: `0x${c.evm.deployedBytecode.object}` };
  };
  cached = {
    TeleporterMessenger: of('teleporter/TeleporterMessenger.sol', 'TeleporterMessenger'),
    WarpStandIn: of('WarpStandIn.sol', 'WarpStandIn'),
    FlakyReceiver: of('FlakyReceiver.sol', 'FlakyReceiver'),
    FeeToken: of('FeeToken.sol', 'FeeToken'),
  };
  return cached;
}
