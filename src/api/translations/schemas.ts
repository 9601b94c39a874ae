import { type Static, Type } from 'typebox';
import { Nullable, Params, StringEnum, Timestamp } from '../../lib/schemas.js';

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

/** The official TranslationSource: the space translated, and the language it is written in. */
const TranslationSourceFields = {
  space: Type.String({ minLength: 1, description: 'ID of the source space' }),
  language: LanguageSchema,
};
export const TranslationSourceInput = Type.Object(TranslationSourceFields, { additionalProperties: false });

/** The official TranslationResult: the space a target language is written to and the revision of the last run. */
const TranslationResult = Type.Object({ space: Type.String(), revision: Type.String(), language: LanguageSchema });

/** The official `Translation.stats`. */
const TranslationStats = Type.Object({
  runs: Type.Integer(),
  totalWords: Type.Integer(),
  totalPages: Type.Integer(),
  totalDuration: Type.Integer(),
  latestRunDuration: Type.Integer(),
  latestPages: Type.Integer(),
  latestWords: Type.Integer(),
});
export type Stats = Static<typeof TranslationStats>;

export const TRANSLATION_STATUSES = ['pending', 'running', 'completed'] as const;

export const TranslationSettings = Type.Object(
  {
    object: Type.Literal('translation-settings'),
    id: Type.String(),
    title: Type.String(),
    /** The target languages: each is written to a space of its own (`results`). */
    languages: Type.Array(LanguageSchema),
    source: Type.Optional(Type.Object(TranslationSourceFields)),
    /** The last run's state (official TranslationStatus); absent before the first run. */
    status: Type.Optional(StringEnum(TRANSLATION_STATUSES)),
    /** Bindery: why the last run failed (its status is then `completed`, its results unchanged). */
    error: Type.Optional(Type.String()),
    results: Type.Array(TranslationResult),
    stats: Type.Optional(TranslationStats),
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
  { title: TranslationTitle, languages: Type.Optional(Languages), source: Type.Optional(TranslationSourceInput) },
  { additionalProperties: false },
);
/** `languages` and `source`, when given, replace what is set (`source: null` removes it); absent, they are kept. */
export const UpdateTranslationBody = Type.Object(
  {
    title: TranslationTitle,
    languages: Type.Optional(Languages),
    source: Type.Optional(Nullable(TranslationSourceInput)),
  },
  { additionalProperties: false },
);
