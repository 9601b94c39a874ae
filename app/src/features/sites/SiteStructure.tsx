/**
 * What a site publishes: its sections (when it has any), each with its site spaces, or its site
 * spaces at the root; adding a space (to a section when there are sections) and adding a section,
 * removing either after a confirmation.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Choice } from '../controls/Choice';
import { ApiErrorText } from '../layout/ApiErrorText';
import { ConfirmButton } from '../layout/ConfirmButton';
import { organizationSpacesQuery } from '../organizations/queries';
import {
  siteSectionsQuery,
  siteSpacesQuery,
  useAddSection,
  useAddSiteSpace,
  useRemoveSection,
  useRemoveSiteSpace,
} from './queries';
import type { SiteSpace } from './types';

interface Ids {
  organizationId: string;
  siteId: string;
}

export function SiteStructure(ids: Ids) {
  const { organizationId, siteId } = ids;
  const { data: sections } = useSuspenseQuery(siteSectionsQuery(organizationId, siteId));
  const { data: siteSpaces } = useSuspenseQuery(siteSpacesQuery(organizationId, siteId));
  const removeSection = useRemoveSection(organizationId, siteId);
  return (
    <section aria-labelledby="content-heading">
      <h2 id="content-heading">Content</h2>
      {sections.length > 0 ? (
        <>
          <ApiErrorText error={removeSection.error} />
          {sections.map((section) => (
            <section key={section.id} aria-labelledby={`section-${section.id}`} className="site-section">
              <div className="row">
                <h3 id={`section-${section.id}`}>
                  {section.title} {section.default ? <span className="muted">(default section)</span> : null}
                </h3>
                <ConfirmButton
                  label={`Remove section ${section.title}`}
                  title={`Remove the section ${section.title}?`}
                  description="Its site spaces leave the site; the spaces themselves are kept."
                  confirm="Remove section"
                  onConfirm={() => removeSection.mutate(section.id)}
                >
                  Remove
                </ConfirmButton>
              </div>
              <SiteSpaceList {...ids} siteSpaces={section.siteSpaces} />
            </section>
          ))}
        </>
      ) : (
        <SiteSpaceList {...ids} siteSpaces={siteSpaces} />
      )}
      <AddSpaceForm {...ids} sections={sections.map((s) => ({ value: s.id, label: s.title }))} />
      <AddSectionForm {...ids} />
    </section>
  );
}

function SiteSpaceList({ organizationId, siteId, siteSpaces }: Ids & { siteSpaces: SiteSpace[] }) {
  const remove = useRemoveSiteSpace(organizationId, siteId);
  if (siteSpaces.length === 0) return <p>No spaces on this site yet.</p>;
  return (
    <>
      <ul className="rows">
        {siteSpaces.map((siteSpace) => (
          <li key={siteSpace.id} className="row">
            <span>
              {siteSpace.space.title} <span className="muted">/{siteSpace.path}</span>
              {siteSpace.default ? <span className="muted"> (default)</span> : null}
            </span>
            <ConfirmButton
              label={`Remove ${siteSpace.space.title}`}
              title={`Remove ${siteSpace.space.title} from the site?`}
              description="The space itself is kept; only the site stops publishing it."
              confirm="Remove space"
              onConfirm={() => remove.mutate(siteSpace.id)}
            >
              Remove
            </ConfirmButton>
          </li>
        ))}
      </ul>
      <ApiErrorText error={remove.error} />
    </>
  );
}

/** The organization's spaces as choices. */
function useSpaceOptions(organizationId: string) {
  const { data: spaces } = useSuspenseQuery(organizationSpacesQuery(organizationId));
  return spaces.map((space) => ({ value: space.id, label: space.title }));
}

function AddSpaceForm({ organizationId, siteId, sections }: Ids & { sections: { value: string; label: string }[] }) {
  const options = useSpaceOptions(organizationId);
  const add = useAddSiteSpace(organizationId, siteId);
  const [spaceId, setSpaceId] = useState('');
  const [sectionId, setSectionId] = useState('');
  const spaceField = useId();
  const sectionField = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!spaceId) return;
    add.mutate({ spaceId, ...(sectionId ? { sectionId } : {}) }, { onSuccess: () => setSpaceId('') });
  }

  return (
    <form onSubmit={submit} className="inline-form" aria-label="Add a space">
      <label htmlFor={spaceField}>Space to add</label>
      <Choice id={spaceField} value={spaceId} options={options} onChange={setSpaceId} placeholder="Choose a space" />
      {sections.length > 0 ? (
        <>
          <label htmlFor={sectionField}>In section</label>
          <Choice
            id={sectionField}
            value={sectionId}
            options={sections}
            onChange={setSectionId}
            placeholder="Default section"
          />
        </>
      ) : null}
      <button type="submit" disabled={!spaceId || add.isPending}>
        Add space
      </button>
      <ApiErrorText error={add.error} />
    </form>
  );
}

function AddSectionForm({ organizationId, siteId }: Ids) {
  const options = useSpaceOptions(organizationId);
  const add = useAddSection(organizationId, siteId);
  const [title, setTitle] = useState('');
  const [spaceId, setSpaceId] = useState('');
  const titleField = useId();
  const spaceField = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!spaceId) return;
    add.mutate(
      { title: title.trim(), spaceId },
      {
        onSuccess: () => {
          setTitle('');
          setSpaceId('');
        },
      },
    );
  }

  return (
    <form onSubmit={submit} className="inline-form" aria-label="Add a section">
      <label htmlFor={titleField}>Section title</label>
      <input id={titleField} type="text" required value={title} onChange={(e) => setTitle(e.target.value)} />
      <label htmlFor={spaceField}>Its first space</label>
      <Choice id={spaceField} value={spaceId} options={options} onChange={setSpaceId} placeholder="Choose a space" />
      <button type="submit" disabled={!spaceId || add.isPending}>
        Add section
      </button>
      <ApiErrorText error={add.error} />
    </form>
  );
}
