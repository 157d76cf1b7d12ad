import { Pill, TagsInput, type TagsInputProps } from '@mantine/core';
import { useState } from 'react';
import { normalizeTagList } from '#shared/tag-colors.ts';
import { tagChipClass, tagChipStyle } from '#web/components/tag-chip.tsx';

export interface TagsEditorProps
  extends Omit<TagsInputProps, 'value' | 'onChange' | 'data' | 'renderPill' | 'splitChars'> {
  value: string[];
  onChange: (tags: string[]) => void;
  /** Suggested spellings (a typed tag matching one in another case takes its spelling). */
  suggestions: readonly string[];
}

/**
 * The tag entry rules (docs/product.md#validation-rules): Enter or comma commits the typed tag, Backspace on
 * an empty input removes the last one, tags are trimmed, empties ignored, duplicates rejected whatever their
 * case, and a suggestion's spelling wins. Chips wear their tag colour.
 */
export function TagsEditor({ value, onChange, suggestions, description, ...props }: TagsEditorProps) {
  const [duplicate, setDuplicate] = useState<string | null>(null);
  return (
    <TagsInput
      {...props}
      value={value}
      onChange={(next) => {
        setDuplicate(null);
        onChange(normalizeTagList(next, suggestions));
      }}
      onDuplicate={(tag) => setDuplicate(tag)}
      data={[...suggestions]}
      splitChars={[',']}
      acceptValueOnBlur
      clearable
      clearButtonProps={{ 'aria-label': 'Remove all tags' }}
      description={
        duplicate
          ? `“${duplicate.trim()}” is already in the list.`
          : (description ?? 'Press Enter or comma to add a tag.')
      }
      renderPill={({ value: tag, onRemove, disabled }) =>
        tag === undefined ? null : (
          <Pill
            key={tag}
            withRemoveButton={!disabled}
            onRemove={onRemove}
            className={tagChipClass}
            style={tagChipStyle(tag)}
            removeButtonProps={{ 'aria-label': `Remove tag ${tag}` }}
          >
            {tag}
          </Pill>
        )
      }
    />
  );
}
