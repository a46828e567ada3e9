// The project dictionaries' API handlers (spread into handlers.ts): list, attach (one
// dictionary, or two composed through a pivot language: align/dictionary-sources.ts) and
// detach, and the shipped dictionaries of the project's languages (used unless switched off).
// Attaching reads and composes at once (CC-CEDICT through English: about 2 s) and
// copies the entries into the project (store/dictionaries.ts); the Align job reads them.
import type { z } from 'zod';
import type { dictionariesChannels, DictionariesResults } from '../../shared/dictionaries-api.ts';
import { composeSpecs, loadDictionarySpec, parseDictionarySpec } from '../align/dictionary-sources.ts';
import { dictionaryTsv } from '../align/dictionary.ts';
import { UserError } from '../errors.ts';
import { defaultDictionaries } from '../align/default-dictionaries.ts';
import type { ProjectStore } from '../store/project-store.ts';
import {
  attachDictionary,
  detachDictionary,
  listDictionaries,
  setUsesShippedDictionaries,
  usesShippedDictionaries,
} from '../store/dictionaries.ts';
import { openProject, type AppContext } from './app-context.ts';

type Channel = keyof DictionariesResults;

function shipped(s: ProjectStore): DictionariesResults['dictionaries.shipped'] {
  const { srcLang, tgtLang } = s.meta();
  return { use: usesShippedDictionaries(s), dictionaries: defaultDictionaries(srcLang, tgtLang) };
}
type Handler<C extends Channel> = (ctx: AppContext, input: z.infer<(typeof dictionariesChannels)[C]>) => DictionariesResults[C];

export const dictionariesHandlers: { [C in Channel]: Handler<C> } = {
  'dictionaries.list': (ctx) => listDictionaries(openProject(ctx)),
  'dictionaries.attach': (ctx, i) => {
    const s = openProject(ctx);
    const entries = i.via
      ? composeSpecs(i.dicts[0], i.dicts[1], i.via, { maxFanout: i.maxFanout })
      : loadDictionarySpec(parseDictionarySpec(i.dicts[0]), 'word');
    const name = i.name ?? (i.via ? `${i.dicts[0]} via ${i.via} ${i.dicts[1]}` : i.dicts[0]);
    if (entries.length === 0) throw new UserError(`${name}: no entries${i.via ? ' (no pivot word in common)' : ''}`);
    const source = { dicts: i.dicts, ...(i.via ? { via: i.via } : {}), ...(i.maxFanout ? { maxFanout: i.maxFanout } : {}) };
    attachDictionary(s, { name, source, text: dictionaryTsv(entries), entries: entries.length });
    return listDictionaries(s);
  },
  'dictionaries.detach': (ctx, i) => {
    const s = openProject(ctx);
    detachDictionary(s, i.id);
    return listDictionaries(s);
  },
  'dictionaries.shipped': (ctx) => shipped(openProject(ctx)),
  'dictionaries.useShipped': (ctx, i) => {
    const s = openProject(ctx);
    setUsesShippedDictionaries(s, i.use);
    return shipped(s);
  },
};
