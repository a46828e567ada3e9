// The benches' option reader (tests/bench/bench-options.ts): defaults filled in, a misspelt
// option or a missing value refused with the usage line, --help printing it and asking the
// bench to stop, number and list options read or refused.
import { describe, expect, test, vi } from 'vitest';
import { benchOptions, listOption, numberList, numberOption } from '../../bench/bench-options.ts';

const options = {
  epochs: { type: 'string' },
  sets: { type: 'string', default: 'zh-en,ro-en' },
  quick: { type: 'boolean', default: false },
} as const;

describe('bench options', () => {
  test('reads given values and fills in defaults', () => {
    expect(benchOptions('neural', ['--epochs', '2', '--quick'], options)).toEqual({ epochs: '2', sets: 'zh-en,ro-en', quick: true });
    expect(benchOptions('neural', ['--sets', ''], options)).toEqual({ sets: '', quick: false });
  });

  test('refuses a misspelt option, a missing value and a positional argument, with the usage', () => {
    const usage = 'npm run bench -- neural [--epochs V] [--sets "zh-en,ro-en"] [--quick]';
    expect(() => benchOptions('neural', ['--epoch', '2'], options)).toThrow(usage);
    expect(() => benchOptions('neural', ['--epochs'], options)).toThrow(/--epochs/);
    expect(() => benchOptions('neural', ['2'], options)).toThrow(usage);
  });

  test('--help prints the usage and asks the bench to stop', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    expect(benchOptions('neural', ['--help'], options)).toBeNull();
    expect(log).toHaveBeenCalledWith('npm run bench -- neural [--epochs V] [--sets "zh-en,ro-en"] [--quick]');
    log.mockRestore();
  });

  test('reads numbers and lists, and refuses what is not a number', () => {
    expect(numberOption('epochs', undefined)).toBeUndefined();
    expect(numberOption('epochs', '20')).toBe(20);
    expect(() => numberOption('epochs', 'x')).toThrow('--epochs: "x" is not a number');
    expect(() => numberOption('epochs', '')).toThrow('is not a number');
    expect(listOption('vie,,tha')).toEqual(['vie', 'tha']);
    expect(listOption('')).toEqual([]);
    expect(numberList('seeds', '1,2,3')).toEqual([1, 2, 3]);
    expect(() => numberList('seeds', '1,b')).toThrow('--seeds: "b" is not a number');
  });
});
