import { Type } from 'typebox';
import { Params, StringEnum, Timestamp } from '../../lib/schemas.js';

/** The official document's TranslationLanguage enum. */
export const LANGUAGES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'pt-br',
  'ru',
  'ja',
  'zh',
  'zh-tw',
  'yue',
  'ko',
  'ar',
  'hi',
  'nl',
  'pl',
  'tr',
  'sv',
  'no',
  'da',
  'fi',
  'el',
  'cs',
  'hu',
  'ro',
  'th',
  'vi',
  'id',
  'ms',
  'he',
  'uk',
  'sk',
  'bg',
  'hr',
  'lt',
  'lv',
  'et',
  'sl',
] as const;
export type Language = (typeof LANGUAGES)[number];
export const LanguageSchema = StringEnum(LANGUAGES, { description: 'Language code' });

export const TranslationTitle = Type.String({ minLength: 1, maxLength: 100 });
const Languages = Type.Array(LanguageSchema, { uniqueItems: true, maxItems: LANGUAGES.length });

export const TranslationSettings = Type.Object(
  {
    object: Type.Literal('translation-settings'),
    id: Type.String(),
    title: Type.String(),
    languages: Type.Array(LanguageSchema),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
    urls: Type.Object({ location: Type.String() }),
  },
  { $id: 'TranslationSettings' },
);

export const OrgParams = Type.Object({ organizationId: Params.organizationId });
export const TranslationParams = Type.Object({
  organizationId: Params.organizationId,
  translationSettingsId: Type.String({ minLength: 1 }),
});
export const CreateTranslationBody = Type.Object(
  { title: TranslationTitle, languages: Type.Optional(Languages) },
  { additionalProperties: false },
);
/** `languages`, when given, replaces the list; when absent it is kept. */
export const UpdateTranslationBody = Type.Object(
  { title: TranslationTitle, languages: Type.Optional(Languages) },
  { additionalProperties: false },
);
