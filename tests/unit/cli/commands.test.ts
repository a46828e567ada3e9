// The CLI loads the module of the command it runs, and all of them for help or an unknown name.
import { Command } from 'commander';
import { expect, test } from 'vitest';
import { commandsFor } from '../../../src/main/cli/commands.ts';

async function registered(...args: string[]): Promise<string[]> {
  const program = new Command('mekong');
  for (const register of await commandsFor(['node', 'mekong', ...args])) register(program);
  return program.commands.map((c) => c.name());
}

test('a command line registers only its command', async () => {
  expect(await registered('align', '--src', 'a')).toEqual(['align']);
  expect(await registered('info', 'p.mekong')).toEqual(['project', 'info', 'check']);
});

test('help and unknown names register every command once', async () => {
  const all = await registered('--help');
  expect(all).toEqual(
    expect.arrayContaining(['project', 'info', 'check', 'import', 'export', 'serve', 'align', 'eval', 'lexicon', 'dict', 'mine']),
  );
  expect(new Set(all).size).toBe(all.length);
  expect(await registered('nope')).toEqual(all);
});
