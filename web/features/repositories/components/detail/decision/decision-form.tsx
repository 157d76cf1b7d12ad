import { Button, Group, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { MESSAGE_CLEAR_MS } from '#shared/constants.ts';
import {
  DECISION_STATUSES,
  type DecisionBody,
  type DecisionStatus,
  decisionBodySchema,
  type Quadrants,
  RATIONALE_REQUIRED,
} from '#shared/schemas/decisions.ts';
import { STATUS_LABELS } from '#web/components/decision-badge.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { describeError, fieldErrors } from '#web/lib/api-errors.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { usePropose, useRecordDecision } from '../../../api/decisions.ts';

export const DECISION_RECORDED = '✅ Decision recorded.';
export const PROPOSAL_SENT = '✅ Proposal sent: members can vote on it and an admin decides.';

interface FormValues {
  status: string;
  quadrant: string;
  rationale: string;
  links: string;
  review_by: string;
}

/** The form's strings as the call's body: '' is "none", links one per line. */
export function toDecisionBody(values: FormValues): unknown {
  return {
    status: values.status === '' ? null : values.status,
    quadrant: values.status === '' ? null : values.quadrant || null,
    rationale: values.rationale,
    links: values.links
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
    review_by: values.review_by === '' ? null : values.review_by,
  };
}

/** The shared schema's own messages, each on the field it names. */
function validate(values: FormValues): Record<string, string> {
  const result = decisionBodySchema.safeParse(toDecisionBody(values));
  const errors: Record<string, string> = {};
  if (!result.success)
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? '');
      if (field && !(field in errors)) errors[field] = issue.message;
    }
  return errors;
}

/**
 * "Change decision", or "Propose a change" where admins decide (DECISIONS_BY=admins and the
 * caller is not one): status, quadrant, the rationale (Markdown without raw HTML; required for
 * adopt, hold and retired), links and an optional review date.
 */
export function DecisionForm({
  fullName,
  current,
  quadrants,
  propose,
}: {
  fullName: string;
  current: { status: DecisionStatus | null; quadrant: string | null };
  quadrants: Quadrants['quadrants'];
  propose: boolean;
}) {
  const record = useRecordDecision(fullName);
  const proposal = usePropose(fullName);
  const pending = record.isPending || proposal.isPending;
  const { message, show, clear } = useMessage();
  const form = useForm<FormValues>({
    initialValues: {
      status: current.status ?? '',
      quadrant: current.quadrant ?? quadrants[0]?.key ?? '',
      rationale: '',
      links: '',
      review_by: '',
    },
    validate,
  });
  // A new decision (this form's, an accepted proposal's) becomes the form's starting point; the
  // form stays mounted so its message survives the answer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new current placement resets the two fields
  useEffect(() => {
    form.setValues({ status: current.status ?? '', quadrant: current.quadrant ?? quadrants[0]?.key ?? '' });
  }, [current.status, current.quadrant]);
  const status = form.values.status as DecisionStatus | '';
  const required = status !== '' && RATIONALE_REQUIRED.includes(status);

  const onSubmit = form.onSubmit((values) => {
    clear();
    const body = decisionBodySchema.parse(toDecisionBody(values)) as DecisionBody;
    const options = {
      onSuccess: () => {
        form.setValues({ rationale: '', links: '', review_by: '' });
        show('success', propose ? PROPOSAL_SENT : DECISION_RECORDED, MESSAGE_CLEAR_MS.saved);
      },
      onError: (failure: unknown) => {
        form.setErrors(fieldErrors(failure));
        show(
          'error',
          `❌ ${propose ? 'Failed to propose' : 'Failed to record the decision'}: ${describeError(failure, 'Request failed')}`,
        );
      },
    };
    if (propose) proposal.mutate(body, options);
    else record.mutate(body, options);
  }, clear);

  return (
    <form onSubmit={onSubmit} noValidate aria-label={propose ? 'Propose a change' : 'Change decision'}>
      <Stack gap="sm">
        <Group grow align="flex-start" gap="sm" wrap="wrap">
          <Select
            label="Status"
            data={[
              { value: '', label: 'No status' },
              ...DECISION_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] })),
            ]}
            allowDeselect={false}
            miw={160}
            {...form.getInputProps('status')}
          />
          <Select
            label="Quadrant"
            data={quadrants.map((quadrant) => ({ value: quadrant.key, label: quadrant.name }))}
            allowDeselect={false}
            disabled={status === ''}
            miw={200}
            {...form.getInputProps('quadrant')}
          />
          <TextInput
            label="Review by"
            type="date"
            description="Optional: the decision is due for review from that day."
            miw={160}
            {...form.getInputProps('review_by')}
          />
        </Group>
        <Textarea
          label="Rationale"
          description={`Markdown, no raw HTML. ${required ? 'Required for this status.' : 'Required for adopt, hold and retired.'}`}
          required={required}
          autosize
          minRows={3}
          maxRows={12}
          {...form.getInputProps('rationale')}
        />
        <Textarea
          label="Links"
          description="Optional: one http(s) address per line (an ADR, a benchmark, a thread)."
          autosize
          minRows={1}
          maxRows={6}
          {...form.getInputProps('links')}
        />
        {propose && (
          <Text size="sm" c="dimmed">
            Decisions are made by admins on this server: members vote on your proposal and an admin accepts or
            declines it.
          </Text>
        )}
        <Group>
          <Button type="submit" loading={pending}>
            {propose ? 'Propose' : 'Record decision'}
          </Button>
        </Group>
        {message && (
          <InlineMessage kind={message.kind} onClose={message.kind === 'error' ? clear : undefined}>
            {message.text}
          </InlineMessage>
        )}
      </Stack>
    </form>
  );
}
