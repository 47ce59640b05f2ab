/** Compiles TestMessenger.sol with solc from npm (at test time: the bytecode is never committed). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import solcModule from 'solc';
import type { Abi, Hex } from 'viem';

interface CompiledMessenger {
  abi: Abi;
  bytecode: Hex;
}

/** solc-js ships no types: the one call used here. */
const solc = solcModule as { compile(input: string): string };

let cached: CompiledMessenger | null = null;

export function compileTestMessenger(): CompiledMessenger {
  if (cached) return cached;
  const source = readFileSync(join(__dirname, 'TestMessenger.sol'), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { 'TestMessenger.sol': { content: source } },
    settings: { optimizer: { enabled: true, runs: 200 }, viaIR: true, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`TestMessenger.sol does not compile:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const c = out.contracts['TestMessenger.sol']!['TestMessenger']!;
  cached = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  return cached;
}
