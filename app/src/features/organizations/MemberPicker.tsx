/**
 * Choosing a member of the organization: a Radix popover with a search field (name or e-mail
 * address, asked of the API as you type, 20 at a time) and the matching members as buttons. Arrow
 * Down from the field goes to the list, arrow keys move in it, Enter chooses, Escape closes.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Popover } from 'radix-ui';
import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from 'react';
import { type Member, memberSearchQuery } from './queries';

export function MemberPicker({
  organizationId,
  open,
  onOpenChange,
  trigger,
  triggerLabel,
  heading,
  exclude,
  onChoose,
  onCloseAutoFocus,
}: {
  organizationId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger: ReactNode;
  /** The trigger's accessible name when its content is not enough. */
  triggerLabel?: string;
  heading: string;
  exclude?: ReadonlySet<string>;
  onChoose: (member: Member) => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const [search, setSearch] = useState('');
  const fieldId = useId();
  const list = useRef<HTMLUListElement>(null);
  const members = useQuery({
    ...memberSearchQuery(organizationId, search.trim()),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const shown = (members.data ?? []).filter((m) => !exclude?.has(m.user.id));

  const options = () => [...(list.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
  function onFieldKey(event: KeyboardEvent) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      options()[0]?.focus();
    }
  }
  function onListKey(event: KeyboardEvent) {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const all = options();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    const next = event.key === 'ArrowDown' ? Math.min(all.length - 1, at + 1) : at - 1;
    if (next < 0) document.getElementById(fieldId)?.focus();
    else all[next]?.focus();
  }

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        if (next) setSearch('');
        onOpenChange(next);
      }}
    >
      <Popover.Trigger className="picker-trigger" aria-label={triggerLabel}>
        {trigger}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className="menu member-picker"
          align="start"
          sideOffset={4}
          aria-label="Choose a member"
          onCloseAutoFocus={onCloseAutoFocus}
        >
          <label htmlFor={fieldId}>{heading}</label>
          <input
            id={fieldId}
            type="search"
            autoComplete="off"
            placeholder="Name or e-mail address"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            onKeyDown={onFieldKey}
          />
          {members.error ? (
            <p role="alert" className="error">
              {members.error.message}
            </p>
          ) : members.isPending ? (
            <p className="muted">Loading members…</p>
          ) : shown.length === 0 ? (
            <p className="muted">No member matches.</p>
          ) : (
            <ul className="member-options" ref={list} onKeyDown={onListKey}>
              {shown.map((m) => (
                <li key={m.user.id}>
                  <button
                    type="button"
                    onClick={() => {
                      onChoose(m);
                      onOpenChange(false);
                    }}
                  >
                    {m.user.displayName}
                    {m.user.email ? <span className="muted"> {m.user.email}</span> : null}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
