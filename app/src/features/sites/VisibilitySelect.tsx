/** A site's visibility, chosen among the API's values. */
import { Choice } from '../controls/Choice';
import { SITE_VISIBILITIES, type SiteVisibility } from './types';

export const VISIBILITY_LABELS: Record<SiteVisibility, string> = {
  public: 'Public',
  unlisted: 'Unlisted',
  'share-link': 'Share links only',
  'visitor-auth': 'Visitor authentication',
};

const OPTIONS = SITE_VISIBILITIES.map((value) => ({ value, label: VISIBILITY_LABELS[value] }));

export function VisibilitySelect(props: {
  id: string;
  value: SiteVisibility;
  onChange: (value: SiteVisibility) => void;
  disabled?: boolean;
}) {
  return <Choice {...props} options={OPTIONS} />;
}
