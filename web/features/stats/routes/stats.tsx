import { PagePlaceholder } from '../../../components/page-placeholder.tsx';

export default function StatsRoute() {
  return <PagePlaceholder title="Statistics" />;
}
