import { PagePlaceholder } from '../../../components/page-placeholder.tsx';

export default function ResendVerificationRoute() {
  return <PagePlaceholder title="Resend Verification Email" />;
}
