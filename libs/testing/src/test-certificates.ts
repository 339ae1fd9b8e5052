import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface CertificateFiles {
  cert: string;
  key: string;
}

export interface TestCertificateAuthority {
  /** The CA certificate's file (what GRPC_TLS_CA points at). */
  caFile: string;
  ca: Buffer;
  /** A certificate for `commonName` signed by this CA, valid for 127.0.0.1 and localhost, as server and client. */
  issue(commonName: string): CertificateFiles & { certPem: Buffer; keyPem: Buffer };
}

/** Certificates made at test time with openssl (P-256 keys, one day), in a folder removed by dispose(). */
export class TestPki {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'cmsg-pki-'));

  authority(name: string): TestCertificateAuthority {
    const caKey = this.file(`${name}-ca.key`);
    const caFile = this.file(`${name}-ca.crt`);
    openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', caKey, '-out', caFile, '-days', '1', '-subj', `/CN=${name} test CA`]);
    return {
      caFile,
      ca: readFileSync(caFile),
      issue: (commonName) => {
        const base = this.file(`${name}-${commonName}`);
        const extensions = `${base}.ext`;
        writeFileSync(extensions, 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n');
        openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${base}.key`, '-out', `${base}.csr`, '-subj', `/CN=${commonName}`]);
        openssl(['x509', '-req', '-in', `${base}.csr`, '-CA', caFile, '-CAkey', caKey, '-CAcreateserial', '-out', `${base}.crt`, '-days', '1', '-extfile', extensions]);
        return { cert: `${base}.crt`, key: `${base}.key`, certPem: readFileSync(`${base}.crt`), keyPem: readFileSync(`${base}.key`) };
      },
    };
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private file(name: string): string {
    return path.join(this.dir, name);
  }
}

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}
