export interface UserSession {
  id: string;
  current: boolean;
  createdAt: string;
  lastUsedAt?: string;
  expiresAt?: string;
  method?: string;
  userAgent?: string;
}

export interface UserToken {
  id: string;
  label: string;
  scopes?: string[] | null;
  createdAt: string;
  expiresAt?: string | null;
  lastUsedAt?: string | null;
}
