package harness

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
)

// caPool is the system's certificate authorities and those of the PEM file.
func caPool(path string) (*x509.CertPool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(data) {
		return nil, fmt.Errorf("%s holds no PEM certificate", path)
	}
	return pool, nil
}

// baseTransport is the transport every client of the target starts from: the default one, with
// the configured certificate authorities and verification, recording every exchange.
func (t *Target) baseTransport() http.RoundTripper {
	return exchangeRecorder{base: t.tlsTransport()}
}

func (t *Target) tlsTransport() http.RoundTripper {
	c := t.Config
	if c.CAFile == "" && !c.InsecureSkipVerify {
		return http.DefaultTransport
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: c.InsecureSkipVerify} //nolint:gosec // a setting, warned about
	if c.CAFile != "" {
		// Checked when the setting was read; a file changed since fails the requests instead.
		if pool, err := caPool(c.CAFile); err == nil {
			tr.TLSClientConfig.RootCAs = pool
		}
	}
	return tr
}

// InsecureWarning is the line the console and the report carry while certificates go unchecked.
const InsecureWarning = "warning: insecure-skip-verify is on: the target's TLS certificate is not checked"
