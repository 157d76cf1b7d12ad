import { PagePlaceholder } from '../../../components/page-placeholder.tsx';

export default function SettingsRoute() {
  return <PagePlaceholder title="Settings" />;
}
