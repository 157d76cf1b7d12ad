import { hashInt, hashUnit } from './stable-hash.ts';

/**
 * Topics derived from what the CSV has: the language and known words of the description, then
 * the repository's own name (maintainers often tag a repository with its name). 0 to 6 topics,
 * lower-case with hyphens, as GitHub stores them.
 */

const PHRASES: ReadonlyArray<readonly [phrase: string, topic: string]> = [
  ['machine learning', 'machine-learning'],
  ['deep learning', 'deep-learning'],
  ['large language model', 'llm'],
  ['computer vision', 'computer-vision'],
  ['natural language', 'nlp'],
  ['open source', 'open-source'],
  ['data science', 'data-science'],
  ['command line', 'cli'],
  ['design system', 'design-system'],
  ['static site', 'static-site-generator'],
  ['neural network', 'neural-network'],
  ['web framework', 'web-framework'],
];

const WORDS: ReadonlySet<string> = new Set([
  'ai',
  'algorithms',
  'android',
  'api',
  'automation',
  'awesome',
  'blockchain',
  'bot',
  'browser',
  'chatgpt',
  'cli',
  'cloud',
  'compiler',
  'cross-platform',
  'css',
  'dashboard',
  'database',
  'devops',
  'docker',
  'editor',
  'education',
  'emulator',
  'framework',
  'game',
  'gpt',
  'graphql',
  'http',
  'interview',
  'ios',
  'kubernetes',
  'linux',
  'llm',
  'macos',
  'markdown',
  'microservices',
  'mobile',
  'monitoring',
  'nodejs',
  'orm',
  'proxy',
  'react',
  'rest',
  'security',
  'server',
  'sql',
  'terminal',
  'testing',
  'tutorial',
  'ui',
  'vue',
  'web',
  'webpack',
  'windows',
]);

/** GitHub's language names turned into the topic people use for them. */
export function languageTopic(language: string): string {
  const special: Record<string, string> = {
    'C++': 'cpp',
    'C#': 'csharp',
    'Jupyter Notebook': 'jupyter-notebook',
  };
  return special[language] ?? slugify(language);
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50);
}

export function deriveTopics(
  seed: string,
  name: string,
  language: string | null,
  description: string | null,
) {
  const candidates: string[] = [];
  const add = (topic: string) => {
    if (topic && !candidates.includes(topic)) {
      candidates.push(topic);
    }
  };
  if (language) {
    add(languageTopic(language));
  }
  const text = (description ?? '').toLowerCase();
  for (const [phrase, topic] of PHRASES) {
    if (text.includes(phrase)) {
      add(topic);
    }
  }
  for (const word of text.split(/[^a-z0-9+#-]+/)) {
    if (WORDS.has(word)) {
      add(word);
    }
  }
  add(slugify(name));
  // About one repository in six has no topics at all, as on GitHub.
  const wanted = hashUnit(`${seed}:has-topics`) < 0.16 ? 0 : hashInt(`${seed}:topic-count`, 1, 6);
  return candidates.slice(0, wanted);
}
