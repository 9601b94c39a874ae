/**
 * The published site's title, logo and primary colour (the site's customization). The API's `PUT`
 * stores the whole object it is given, so the form sends back what it read with these keys changed.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { ApiErrorText } from '../layout/ApiErrorText';
import { sixDigitColor, withAppearance } from './appearance';
import { customizationQuery, useSaveCustomization } from './queries';

export function SiteAppearance({ organizationId, siteId }: { organizationId: string; siteId: string }) {
  const { data: customization } = useSuspenseQuery(customizationQuery(organizationId, siteId));
  const save = useSaveCustomization(organizationId, siteId);
  const [form, setForm] = useState({
    title: customization.title ?? '',
    logo: customization.header.logo?.light ?? '',
    light: sixDigitColor(customization.styling.primaryColor.light),
    dark: sixDigitColor(customization.styling.primaryColor.dark),
  });
  const ids = { title: useId(), logo: useId(), light: useId(), dark: useId() };
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((now) => ({ ...now, [key]: e.target.value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate(withAppearance(customization, form));
  }

  return (
    <form onSubmit={submit} className="stacked-form">
      <h2>Appearance</h2>
      <label htmlFor={ids.title}>Published title</label>
      <input
        id={ids.title}
        type="text"
        value={form.title}
        onChange={set('title')}
        aria-describedby={`${ids.title}-hint`}
      />
      <p id={`${ids.title}-hint`} className="muted hint-text">
        Shown on the published site instead of the site's name; leave empty to use the name.
      </p>
      <label htmlFor={ids.logo}>Logo address</label>
      <input id={ids.logo} type="url" placeholder="https://…" value={form.logo} onChange={set('logo')} />
      <div className="colors">
        <label htmlFor={ids.light}>Primary colour, light theme</label>
        <input id={ids.light} type="color" value={form.light} onChange={set('light')} />
        <label htmlFor={ids.dark}>Primary colour, dark theme</label>
        <input id={ids.dark} type="color" value={form.dark} onChange={set('dark')} />
      </div>
      <div className="actions">
        <button type="submit" disabled={save.isPending}>
          Save appearance
        </button>
      </div>
      {save.isSuccess ? <p role="status">Saved.</p> : null}
      <ApiErrorText error={save.error} />
    </form>
  );
}
