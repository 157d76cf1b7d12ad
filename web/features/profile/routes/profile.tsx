import { PagePlaceholder } from '../../../components/page-placeholder.tsx';

export default function ProfileRoute() {
  return <PagePlaceholder title="Profile" />;
}
