import { Button, Popover, Select, Stack, Text, Textarea } from '@mantine/core';
import { IconCompass } from '@tabler/icons-react';
import { useState } from 'react';
import {
  DECISION_STATUSES,
  type DecisionStatus,
  decisionBodySchema,
  RATIONALE_REQUIRED,
} from '#shared/schemas/decisions.ts';
import { STATUS_LABELS } from '#web/components/decision-badge.tsx';
import { useAuth } from '#web/lib/auth/auth-context.tsx';
import { useQuadrants } from '../api/decisions.ts';
import { BarButton } from './bar-button.tsx';

export interface StatusChange {
  status: DecisionStatus | null;
  quadrant: string | null;
  rationale: string;
}

/**
 * "Set status" over the selection (docs/product.md#bulk-actions): one status, quadrant and
 * rationale for every selected repository, each getting its own decision record. Offered to
 * whoever may decide: every member, or admins only when DECISIONS_BY=admins.
 */
export function StatusBulkButton({
  count,
  compact,
  pending,
  onApply,
}: {
  count: number;
  compact: boolean;
  pending: boolean;
  onApply: (change: StatusChange) => void;
}) {
  const [opened, setOpened] = useState(false);
  const [status, setStatus] = useState<string>('adopt');
  const [quadrant, setQuadrant] = useState<string | null>(null);
  const [rationale, setRationale] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const quadrants = useQuadrants();
  const { user } = useAuth();
  const list = quadrants.data?.quadrants ?? [];
  if (quadrants.data?.decisions_by === 'admins' && !user?.is_admin) return null;

  const apply = () => {
    const change = {
      status: status === '' ? null : (status as DecisionStatus),
      quadrant: status === '' ? null : (quadrant ?? list[0]?.key ?? null),
      rationale,
    };
    const parsed = decisionBodySchema.safeParse(change);
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])),
      );
      return;
    }
    setErrors({});
    onApply({ ...change, rationale: parsed.data.rationale });
    setOpened(false);
  };
  const required = status !== '' && RATIONALE_REQUIRED.includes(status as DecisionStatus);

  return (
    <Popover opened={opened} onChange={setOpened} trapFocus position="top" withArrow shadow="md">
      <Popover.Target>
        <BarButton
          compact={compact}
          icon={<IconCompass size={16} aria-hidden />}
          label="Set status"
          loading={pending}
          onClick={() => setOpened((open) => !open)}
        />
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" w={280}>
          <Select
            label="Status"
            data={[
              { value: '', label: 'No status' },
              ...DECISION_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] })),
            ]}
            value={status}
            onChange={(value) => setStatus(value ?? '')}
            allowDeselect={false}
            comboboxProps={{ withinPortal: false }}
            data-autofocus
          />
          <Select
            label="Quadrant"
            data={list.map((entry) => ({ value: entry.key, label: entry.name }))}
            value={quadrant ?? list[0]?.key ?? null}
            onChange={setQuadrant}
            disabled={status === ''}
            allowDeselect={false}
            comboboxProps={{ withinPortal: false }}
            error={errors.quadrant}
          />
          <Textarea
            label="Rationale"
            description={
              required ? 'Required for this status; Markdown, no raw HTML.' : 'Markdown, no raw HTML.'
            }
            required={required}
            autosize
            minRows={2}
            maxRows={6}
            value={rationale}
            onChange={(event) => setRationale(event.currentTarget.value)}
            error={errors.rationale}
          />
          <Text size="xs" c="dimmed">
            Each repository gets its own decision record with this rationale.
          </Text>
          <Button size="xs" loading={pending} onClick={apply}>
            {`Set for ${count}`}
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
