import { RepositoryEventsCard } from '#web/features/activity/components/repository-events-card.tsx';
import RepositoryDetailRoute, {
  type RepositoryDetailSlots,
} from '#web/features/repositories/routes/repository-detail.tsx';

/** The Activity tab (docs/product.md#repository-detail). */
const slots: RepositoryDetailSlots = {
  activity: (repository) => <RepositoryEventsCard fullName={repository.id} />,
};

/** The repository detail screen as the route table serves it: the repositories feature's page with the activity feature's tab. */
export default function RepositoryDetailScreen() {
  return <RepositoryDetailRoute slots={slots} />;
}
