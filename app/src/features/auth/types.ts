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
