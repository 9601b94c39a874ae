export interface User {
  object: 'user';
  id: string;
  displayName: string;
  email?: string;
  photoURL?: string;
}

export interface Session {
  user: User;
  csrfToken: string;
  expiresAt: string;
}

export interface AuthStatus {
  session: Session | null;
  /** Ways to sign in besides a password (the server's OpenID Connect provider). */
  sso: Array<{ name: string; loginUrl: string }>;
}
