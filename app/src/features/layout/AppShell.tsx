/**
 * The frame of every screen: the sign-in gate, then a banner with the account menu and the screen
 * itself. Reading what is already on screen never waits for what is loading (Suspense per screen).
 */
import { Link, Outlet } from '@tanstack/react-router';
import { Suspense } from 'react';
import { SignIn } from '../auth/SignIn';
import { useSession } from '../auth/session';
import { AccountMenu } from './AccountMenu';
import { Loading } from './Loading';

export function AppShell() {
  return (
    <Suspense fallback={<Loading label="Loading Bindery" />}>
      <Gate />
    </Suspense>
  );
}

function Gate() {
  const session = useSession();
  if (!session) return <SignIn />;
  return (
    <div className="app">
      <header className="banner">
        <Link to="/" className="brand">
          Bindery
        </Link>
        <AccountMenu user={session.user} />
      </header>
      <Suspense fallback={<Loading label="Loading" />}>
        <Outlet />
      </Suspense>
    </div>
  );
}
