/**
 * A comment's text field with mentions: typing `@` (or the "Mention" button) opens a Radix menu of
 * the organization's members (arrow keys, typeahead, Enter); the chosen member is written as the
 * API's Markdown mention, `@<handle>`, and the caret goes back to the text after it.
 */
import { useQuery } from '@tanstack/react-query';
import { DropdownMenu } from 'radix-ui';
import { useId, useRef, useState } from 'react';
import { organizationMembersQuery } from '../organizations/queries';
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
  // Where the `@` that opened the menu is (null: opened by the button, insert at the caret).
  const typedAt = useRef<number | null>(null);
  const caret = useRef(0);
  const nextCaret = useRef<number | null>(null);
  const members = useQuery({ ...organizationMembersQuery(organizationId), enabled: open });

  function choose(user: { id: string; email?: string }) {
    const out = insertMention(value, caret.current, mentionHandle(user), typedAt.current);
    nextCaret.current = out.caret;
    onChange(out.text);
  }

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
      <DropdownMenu.Root
        open={open}
        onOpenChange={(next) => {
          if (next) {
            typedAt.current = null;
            caret.current = field.current?.selectionStart ?? value.length;
          }
          setOpen(next);
        }}
        modal={false}
      >
        <DropdownMenu.Trigger className="mention-trigger">
          <span aria-hidden="true">@</span> Mention
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            className="menu mention-menu"
            align="start"
            sideOffset={4}
            onCloseAutoFocus={(event) => {
              // Back to the text, after the mention when one was put in.
              event.preventDefault();
              const input = field.current;
              if (!input) return;
              input.focus();
              if (nextCaret.current !== null) input.setSelectionRange(nextCaret.current, nextCaret.current);
              nextCaret.current = null;
            }}
          >
            <DropdownMenu.Label className="menu-label">Mention a member</DropdownMenu.Label>
            {members.error ? (
              <p role="alert" className="error menu-label">
                {members.error.message}
              </p>
            ) : members.isPending ? (
              <p className="menu-label">Loading members…</p>
            ) : (
              members.data.map((m) => (
                <DropdownMenu.Item key={m.id} className="menu-item" onSelect={() => choose(m.user)}>
                  {m.user.displayName}
                </DropdownMenu.Item>
              ))
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </div>
  );
}
