// The project dictionaries' part of the API contract (spread into `channels` and `Results`
// in api.ts): bilingual dictionaries attached to a project, which its Align job uses as a
// lexical prior. A dictionary is attached from one spec (a file on the machine running
// Mekong, or one that ships with it: `lo-en:bundled`, `zh-en:cedict`), or composed from two
// through a pivot language (`via`), as the CLI's `--dict A --via en --dict B` does. The
// dictionaries that ship with Mekong and connect the project's languages are used without
// being attached, unless the project switches them off.
import { z } from 'zod';

const spec = z.string().trim().min(1).max(4096);

export const attachDictionarySchema = z
  .object({
    /** One spec, or two composed through `via`: `xx-yy:FILE`, `lo-en:bundled`, `zh-en:cedict`. */
    dicts: z.array(spec).min(1).max(2),
    /** The pivot language both dictionaries share (two dicts), e.g. 'en'. */
    via: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2,3}$/, 'a language code such as en, zh')
      .optional(),
    /** With `via`: pivot words with more translations than this are not used. */
    maxFanout: z.number().int().min(1).max(1000).optional(),
    /** Display name; defaults to the specs. */
    name: z.string().trim().min(1).max(200).optional(),
  })
  .strict()
  .refine((o) => (o.dicts.length === 2) === (o.via !== undefined), {
    message: 'give two dictionaries with a pivot language (via), or one without',
  });

export const dictionariesChannels = {
  'dictionaries.list': z.object({}).strict(),
  'dictionaries.attach': attachDictionarySchema,
  'dictionaries.detach': z.object({ id: z.number().int().nonnegative() }).strict(),
  /** The dictionaries that ship with Mekong for the project's two languages, and whether its jobs use them. */
  'dictionaries.shipped': z.object({}).strict(),
  /** Switches the shipped dictionaries on or off for the project's jobs (on by default). */
  'dictionaries.useShipped': z.object({ use: z.boolean() }).strict(),
} as const;

export type AttachDictionaryOptions = z.infer<typeof attachDictionarySchema>;

/** A dictionary that ships with Mekong: its spec source name, languages and a label. */
export interface ShippedDictionary {
  source: string;
  langs: [string, string];
  label: string;
}

export interface DictionaryInfo {
  id: number;
  name: string;
  /** How it was made: its specs, pivot language and cut-off. */
  source: { dicts: string[]; via?: string; maxFanout?: number };
  entries: number;
  attachedAt: string;
}

/** The shipped dictionaries a project's languages get by default (align/default-dictionaries.ts). */
export interface ShippedForProject {
  /** Whether the project's Align and training jobs use them. */
  use: boolean;
  /** Each connecting dictionary: its label and specs (two, composed through `via`, for a pivot). */
  dictionaries: { label: string; specs: string[]; via?: string }[];
}

export interface DictionariesResults {
  'dictionaries.list': DictionaryInfo[];
  'dictionaries.attach': DictionaryInfo[];
  'dictionaries.detach': DictionaryInfo[];
  'dictionaries.shipped': ShippedForProject;
  'dictionaries.useShipped': ShippedForProject;
}
