/**
 * Search across an organization (or within a space): a labelled search field in a `search`
 * landmark; results grouped by space, each page and section a link to where it is in the app.
 */
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { appPath } from '../../api/app-urls';
import { Loading } from '../layout/Loading';
import { Highlighted } from './Highlighted';
import { searchQuery } from './queries';

export function SearchBox({
  organizationId,
  spaceId,
  label,
}: {
  organizationId?: string;
  spaceId?: string;
  label: string;
}) {
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const results = useQuery(searchQuery({ organizationId, spaceId }, query));
  const fieldId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    setQuery(draft.trim());
  }

  return (
    <search className="search">
      <form onSubmit={submit}>
        <label htmlFor={fieldId}>{label}</label>
        <input id={fieldId} type="search" value={draft} onChange={(e) => setDraft(e.target.value)} />
        <button type="submit">Search</button>
      </form>
      {results.error ? (
        <p role="alert" className="error">
          {results.error.message}
        </p>
      ) : results.isFetching ? (
        <Loading label="Searching" />
      ) : results.data ? (
        results.data.length === 0 ? (
          <p role="status">No results for “{query}”.</p>
        ) : (
          <ul className="results" aria-label={`Results for ${query}`}>
            {results.data.map((space) => (
              <li key={space.id}>
                <p className="result-space">{space.title}</p>
                <ul>
                  {space.pages.map((page) => (
                    <li key={page.id}>
                      <a href={page.urls?.app ? appPath(page.urls.app) : `#${page.id}`}>
                        <Highlighted text={page.title} />
                      </a>
                      {(page.sections ?? []).map((section) => (
                        <p key={section.id} className="result-section">
                          <a href={section.urls?.app ? appPath(section.urls.app) : undefined}>
                            <Highlighted text={section.title} />
                          </a>
                          {section.body ? (
                            <>
                              {' '}
                              <span className="muted">
                                <Highlighted text={section.body} html />
                              </span>
                            </>
                          ) : null}
                        </p>
                      ))}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </search>
  );
}
