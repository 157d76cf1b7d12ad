import { PagePlaceholder } from '../../../components/page-placeholder.tsx';

export default function RegisterRoute() {
  return <PagePlaceholder title="Create Account" />;
}
