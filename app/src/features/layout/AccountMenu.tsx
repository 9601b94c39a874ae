/** The account menu (Radix: keyboard, focus and ARIA menu semantics): who is signed in, "Sign out". */
import { useNavigate } from '@tanstack/react-router';
import { DropdownMenu } from 'radix-ui';
import { useSignOut } from '../auth/session';
import type { User } from '../auth/types';

export function AccountMenu({ user }: { user: User }) {
  const signOut = useSignOut();
  const navigate = useNavigate();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="account-trigger" aria-label={`Account: ${user.displayName}`}>
        {user.displayName}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
          <DropdownMenu.Label className="menu-label">{user.email ?? user.displayName}</DropdownMenu.Label>
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item className="menu-item" onSelect={() => navigate({ to: '/account' })}>
            Sessions and tokens
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={() => signOut.mutate()}>
            Sign out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
