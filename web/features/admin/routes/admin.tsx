import { PagePlaceholder } from '../../../components/page-placeholder.tsx';

export default function AdminRoute() {
  return <PagePlaceholder title="Admin Dashboard" />;
}
