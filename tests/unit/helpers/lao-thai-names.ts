// A tiny Lao–Thai corpus (TSV) in which one name, ເຢໂຫວາ (Jehovah), recurs four times and ICU
// cuts it into syllables: the tests of learning words from the corpus (CLI and import dialog)
// expect it learned whole.
export const LAO_THAI_NAME_CORPUS = [
  'ເຢໂຫວາເປັນພະເຈົ້າ\tพระยะโฮวาเป็นพระเจ้า',
  'ພວກເຮົານະມັດສະການເຢໂຫວາ\tเรานมัสการพระยะโฮวา',
  'ເຢໂຫວາຮັກພວກເຮົາ\tพระยะโฮวารักเรา',
  'ຄຳພີໄບເບິນບອກວ່າເຢໂຫວາຊົງຮັກ\tคัมภีร์ไบเบิลบอกว่าพระยะโฮวาทรงรัก',
].join('\n');

/** The recurring name. */
export const LAO_NAME = 'ເຢໂຫວາ';
