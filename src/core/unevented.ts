/**
 * The service functions whose transactions may change data without recording an event, each with
 * why. Everything else that changes data in an `inTransaction` (src/core/service.ts) must record
 * one in that transaction, or the transaction is refused at its end (src/core/event-guard.ts). A
 * function on this list says so where it opens its transaction (`{ withoutEvent: '<its name>' }`),
 * and test/unit/event-guard.test.ts checks that each name here is used by the function it names
 * and by no other. Keep it short: a change that a user or an admin would want to see in the audit
 * log, or that a webhook could act on, does not belong here.
 */
export const WRITES_WITHOUT_EVENT = {
  pingOrganization: "a member's last-seen time: bookkeeping on every visit, no change of the organization",
  recordSiteEvents:
    "visitors' analytics (page views, searches, clicks): traffic, not changes; they have their own store",
  recordGitExport:
    'which commit an exported revision went to (bookkeeping of the export job; `space.gitsync.completed` records its outcome)',
  startSpecProcessing:
    'a processing job claims its specification: job bookkeeping; the outcome records `openapi.version.created` or `openapi.processing.failed`',
  startTranslationRun:
    'a translation job claims its run (status `running`): job bookkeeping; the request recorded `translation.run_started` and the end records `translation.run_completed`',
  recordSpecProcessed:
    'processing found the content unchanged: only the processing state (job bookkeeping); new content records `openapi.version.created`',
  issueToken: 'a user who is a member of no organization has no audit log to record `token.created` in',
  revokeIssuedToken: 'a user who is a member of no organization has no audit log to record `token.revoked` in',
  accountChange:
    "a change of a user's own sign-in (sessions, password, failed attempts) is recorded in each organization of the user; one who is a member of none has no audit log",
  updateUser: 'a user who is a member of no organization has no audit log to record `user.updated` in',
  admitSsoUser:
    'a person signing in through OpenID Connect for the first time, with no organization to join, is a new user of no organization: there is no audit log to record it in (joining one records `member.added`)',
  settleAttempt: "a webhook delivery's attempt: recording it as an event would feed the webhooks their own deliveries",
} as const;

export type WriteWithoutEvent = keyof typeof WRITES_WITHOUT_EVENT;
