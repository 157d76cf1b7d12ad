import { PagePlaceholder } from '../../../components/page-placeholder.tsx';

export default function VerifyEmailRoute() {
  return <PagePlaceholder title="Email Verification" />;
}
