/** An organization's screen: its navigation landmark beside the screen's main content. */
import type { ReactNode } from 'react';
import { OrganizationNav } from './OrganizationNav';

export function OrgLayout({ organizationId, children }: { organizationId: string; children: ReactNode }) {
  return (
    <div className="layout">
      <OrganizationNav organizationId={organizationId} />
      <main className="screen">{children}</main>
    </div>
  );
}
