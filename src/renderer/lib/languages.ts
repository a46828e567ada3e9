// Language codes as the UI shows them: an English name for a code, and the codes a
// linguist most often picks (offered as suggestions; any BCP 47 code is accepted).
const names = new Intl.DisplayNames(['en'], { type: 'language' });

export const COMMON_LANGUAGES = ['lo', 'th', 'vi', 'km', 'my', 'zh', 'en', 'id'] as const;

export function languageName(code: string): string {
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}
