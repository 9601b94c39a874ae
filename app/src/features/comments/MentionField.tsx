/**
 * A comment's text field with mentions: typing `@` (or the "Mention" button) opens the member
 * picker, with the search field focused; the chosen member is written as the API's Markdown
 * mention, `@<handle>`, and the caret goes back to the text after it.
 */
import { useId, useRef, useState } from 'react';
import { MemberPicker } from '../organizations/MemberPicker';
import { insertMention, mentionHandle, typedMention } from './mention';

export function MentionField({
  organizationId,
  label,
  value,
  onChange,
  rows = 3,
}: {
  organizationId: string;
  label: string;
  value: string;
  onChange: (text: string) => void;
  rows?: number;
}) {
  const fieldId = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const [open, setOpen] = useState(false);
  // Where the `@` that opened the picker is (null: opened by the button, insert at the caret).
  const typedAt = useRef<number | null>(null);
  const caret = useRef(0);
  const nextCaret = useRef<number | null>(null);

  return (
    <div className="mention-field">
      <label htmlFor={fieldId}>{label}</label>
      <textarea
        id={fieldId}
        ref={field}
        rows={rows}
        value={value}
        onChange={(event) => {
          const text = event.target.value;
          const at = typedMention(text, event.target.selectionStart);
          onChange(text);
          if (at !== null && text.length > value.length) {
            typedAt.current = at;
            caret.current = event.target.selectionStart;
            setOpen(true);
          }
        }}
      />
      <MemberPicker
        organizationId={organizationId}
        open={open}
        onOpenChange={(next) => {
          // Opened by the button: the mention goes where the caret is.
          if (next && !open) {
            typedAt.current = null;
            caret.current = field.current?.selectionStart ?? value.length;
          }
          setOpen(next);
        }}
        trigger={
          <>
            <span aria-hidden="true">@</span> Mention
          </>
        }
        heading="Mention a member"
        onChoose={(member) => {
          const out = insertMention(value, caret.current, mentionHandle(member.user), typedAt.current);
          nextCaret.current = out.caret;
          onChange(out.text);
        }}
        onCloseAutoFocus={(event) => {
          // Back to the text, after the mention when one was put in.
          event.preventDefault();
          const input = field.current;
          if (!input) return;
          input.focus();
          if (nextCaret.current !== null) input.setSelectionRange(nextCaret.current, nextCaret.current);
          nextCaret.current = null;
        }}
      />
    </div>
  );
}
