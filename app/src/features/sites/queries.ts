/** The organization's sites and one site's parts (site spaces, sections, share links, customization). */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { request, requestAll } from '../../api/client';
import type { Customization, ShareLink, Site, SiteSection, SiteSpace, SiteVisibility } from './types';

const sitesPath = (organizationId: string) => `/v1/orgs/${encodeURIComponent(organizationId)}/sites`;
const sitePath = (organizationId: string, siteId: string) =>
  `${sitesPath(organizationId)}/${encodeURIComponent(siteId)}`;

export const sitesQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['orgs', organizationId, 'sites'],
    queryFn: ({ signal }) => requestAll<Site>(sitesPath(organizationId), signal),
  });

/** Every query of one site starts with this key, so a change refreshes them all at once. */
const siteKey = (siteId: string) => ['sites', siteId] as const;

export const siteQuery = (organizationId: string, siteId: string) =>
  queryOptions({
    queryKey: [...siteKey(siteId)],
    queryFn: ({ signal }) => request<Site>(sitePath(organizationId, siteId), { signal }),
  });

export const siteSpacesQuery = (organizationId: string, siteId: string) =>
  queryOptions({
    queryKey: [...siteKey(siteId), 'site-spaces'],
    queryFn: ({ signal }) => requestAll<SiteSpace>(`${sitePath(organizationId, siteId)}/site-spaces`, signal),
  });

export const siteSectionsQuery = (organizationId: string, siteId: string) =>
  queryOptions({
    queryKey: [...siteKey(siteId), 'sections'],
    queryFn: ({ signal }) => requestAll<SiteSection>(`${sitePath(organizationId, siteId)}/sections`, signal),
  });

export const shareLinksQuery = (organizationId: string, siteId: string) =>
  queryOptions({
    queryKey: [...siteKey(siteId), 'share-links'],
    queryFn: ({ signal }) => requestAll<ShareLink>(`${sitePath(organizationId, siteId)}/share-links`, signal),
  });

export const customizationQuery = (organizationId: string, siteId: string) =>
  queryOptions({
    queryKey: [...siteKey(siteId), 'customization'],
    queryFn: ({ signal }) => request<Customization>(`${sitePath(organizationId, siteId)}/customization`, { signal }),
  });

export function useCreateSite(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { title: string; visibility: SiteVisibility; spaces: string[] }) =>
      request<Site>(sitesPath(organizationId), { method: 'POST', body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: sitesQuery(organizationId).queryKey }),
  });
}

/**
 * A change to one site: `path` below the site's own path ('' for the site), then the site's queries
 * and the organization's list are refreshed.
 */
function useSiteChange<TInput, TOutput = unknown>(
  organizationId: string,
  siteId: string,
  change: (input: TInput) => { path: string; method: 'POST' | 'PUT' | 'PATCH' | 'DELETE'; body?: unknown },
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TInput) => {
      const { path, method, body } = change(input);
      return request<TOutput>(`${sitePath(organizationId, siteId)}${path}`, { method, body });
    },
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: siteKey(siteId) }),
        client.invalidateQueries({ queryKey: sitesQuery(organizationId).queryKey }),
      ]);
    },
  });
}

const id = (value: string) => encodeURIComponent(value);

export const useUpdateSite = (organizationId: string, siteId: string) =>
  useSiteChange(organizationId, siteId, (body: { title?: string; visibility?: SiteVisibility }) => ({
    path: '',
    method: 'PATCH',
    body,
  }));

export const useSetPublished = (organizationId: string, siteId: string) =>
  useSiteChange(organizationId, siteId, (published: boolean) => ({
    path: published ? '/publish' : '/unpublish',
    method: 'POST',
  }));

export const useAddSiteSpace = (organizationId: string, siteId: string) =>
  useSiteChange(organizationId, siteId, (body: { spaceId: string; sectionId?: string }) => ({
    path: '/site-spaces',
    method: 'POST',
    body,
  }));

export const useRemoveSiteSpace = (organizationId: string, siteId: string) =>
  useSiteChange(organizationId, siteId, (siteSpaceId: string) => ({
    path: `/site-spaces/${id(siteSpaceId)}`,
    method: 'DELETE',
  }));

export const useAddSection = (organizationId: string, siteId: string) =>
  useSiteChange(organizationId, siteId, (body: { spaceId: string; title: string }) => ({
    path: '/sections',
    method: 'POST',
    body,
  }));

export const useRemoveSection = (organizationId: string, siteId: string) =>
  useSiteChange(organizationId, siteId, (sectionId: string) => ({
    path: `/sections/${id(sectionId)}`,
    method: 'DELETE',
  }));

export const useCreateShareLink = (organizationId: string, siteId: string) =>
  useSiteChange<string, ShareLink>(organizationId, siteId, (name) => ({
    path: '/share-links',
    method: 'POST',
    body: { name },
  }));

export const useRevokeShareLink = (organizationId: string, siteId: string) =>
  useSiteChange(organizationId, siteId, (shareLinkId: string) => ({
    path: `/share-links/${id(shareLinkId)}`,
    method: 'DELETE',
  }));

export const useSaveCustomization = (organizationId: string, siteId: string) =>
  useSiteChange<Customization, Customization>(organizationId, siteId, (body) => ({
    path: '/customization',
    method: 'PUT',
    body,
  }));
