/**
 * A small Python project with a bug to localize, written fresh for each test
 * file that needs it, and the files whose exact bytes the verbatim tests check.
 */
import path from 'node:path';
import { indexRepository } from '../../indexer/index-repository.ts';
import { storeFileSource } from '../../indexer/store/file-source.ts';
import { openStore, type DB } from '../../indexer/store/open.ts';
import { tempDir, writeTree } from '../helpers/repo.ts';

export const PROJECT_FILES: Record<string, string | Buffer> = {
  'netkit/__init__.py': '"""netkit: a tiny HTTP toolkit."""\nfrom .client import Client\nfrom .models import Request\n',
  'netkit/exceptions.py': 'class NetkitError(Exception):\n    """Base error."""\n\n\nclass InvalidURL(NetkitError):\n    """The URL cannot be parsed."""\n',
  'netkit/models.py': [
    'from .exceptions import InvalidURL',
    'from .utils import to_native_string',
    '',
    '',
    'class Request:',
    '    """An HTTP request about to be sent."""',
    '',
    '    def __init__(self, method, url, headers=None):',
    '        self.method = to_native_string(method)',
    '        self.url = url',
    '        self.headers = headers or {}',
    '',
    '    def prepare_url(self, url):',
    '        host = url.split("//", 1)[-1].split("/", 1)[0]',
    '        if not host:',
    '            raise InvalidURL("URL has an invalid label.")',
    '        return host.encode("idna")',
    '',
  ].join('\n'),
  'netkit/client.py': [
    'from .models import Request',
    '',
    '',
    'class Client:',
    '    """Sends requests and follows redirects."""',
    '',
    '    def send(self, method, url):',
    '        request = Request(method, url)',
    '        host = request.prepare_url(url)',
    '        return self.resolve_redirects(request, host)',
    '',
    '    def resolve_redirects(self, request, host):',
    '        return (request.method, host)',
    '',
  ].join('\n'),
  'netkit/utils.py': [
    'def to_native_string(value, encoding="ascii"):',
    '    """Returns value as a native string."""',
    '    if isinstance(value, str):',
    '        return value',
    '    return value.decode(encoding)',
    '',
    '',
    'def guess_encoding(data):',
    '    return "utf-8"',
    '',
  ].join('\n'),
  'tests/test_client.py': 'from netkit import Client\n\n\ndef test_send():\n    assert Client().send("GET", "http://example.com")\n',
  'docs/usage.md': '# Usage\n\nCall `Client().send("GET", url)`; an empty host raises InvalidURL.\n',
  'README.md': '# netkit\n\nA tiny HTTP toolkit: Client, Request, InvalidURL.\n',
};

export const ISSUE = [
  'Getting http://.example.com raises UnicodeError instead of InvalidURL',
  '',
  'Calling `Client().send("GET", "http://.example.com")` fails:',
  '',
  '```',
  'Traceback (most recent call last):',
  '  File "repro.py", line 3, in <module>',
  '    Client().send("GET", "http://.example.com")',
  '  File "/usr/lib/python3/site-packages/netkit/client.py", line 9, in send',
  '    host = request.prepare_url(url)',
  '  File "/usr/lib/python3/site-packages/netkit/models.py", line 17, in prepare_url',
  '    return host.encode("idna")',
  "UnicodeError: encoding with 'idna' codec failed (UnicodeError: label empty or too long)",
  '```',
  '',
  'I expected `InvalidURL: URL has an invalid label.` as `prepare_url` raises for an empty host.',
  '',
].join('\n');

/** Writes `files` to a fresh folder, indexes it in-process, and opens a FileSource over it. */
export async function indexedProject(files: Record<string, string | Buffer> = PROJECT_FILES): Promise<{ repo: string; db: DB; source: ReturnType<typeof storeFileSource> }> {
  const repo = tempDir('allot-files-');
  writeTree(repo, files);
  const db = openStore(path.join(repo, '.allot/index.db'));
  await indexRepository({ repo, db, workers: 0 });
  return { repo, db, source: storeFileSource(db, repo) };
}
