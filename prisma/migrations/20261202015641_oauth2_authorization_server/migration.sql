-- CreateTable
CREATE TABLE "oauth2_clients" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "client_id" TEXT NOT NULL,
    "client_secret_hash" TEXT,
    "registration_token_hash" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "client_name" TEXT NOT NULL,
    "redirect_uris" TEXT[],
    "token_endpoint_auth_method" TEXT NOT NULL,
    "grant_types" TEXT[],
    "response_types" TEXT[],
    "scopes" TEXT[],
    "client_uri" TEXT,
    "logo_uri" TEXT,
    "tos_uri" TEXT,
    "policy_uri" TEXT,
    "default_sub_type" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "oauth2_clients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth2_authorization_codes" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "code_hash" TEXT NOT NULL,
    "client_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "sub_type" TEXT NOT NULL,
    "organization_id" UUID,
    "scopes" TEXT[],
    "redirect_uri" TEXT NOT NULL,
    "code_challenge" TEXT,
    "code_challenge_method" TEXT,
    "nonce" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth2_authorization_codes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth2_tokens" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "client_id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "authorization_code_id" UUID,
    "sub_type" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "organization_id" UUID,
    "scopes" TEXT[],
    "access_token_hash" TEXT NOT NULL,
    "refresh_token_hash" TEXT,
    "access_expires_at" TIMESTAMPTZ(3) NOT NULL,
    "refresh_expires_at" TIMESTAMPTZ(3),
    "access_revoked_at" TIMESTAMPTZ(3),
    "refresh_revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth2_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "oauth2_clients_client_id_key" ON "oauth2_clients"("client_id");

-- CreateIndex
CREATE UNIQUE INDEX "oauth2_clients_registration_token_hash_key" ON "oauth2_clients"("registration_token_hash");

-- CreateIndex
CREATE INDEX "oauth2_clients_user_id_idx" ON "oauth2_clients"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "oauth2_authorization_codes_code_hash_key" ON "oauth2_authorization_codes"("code_hash");

-- CreateIndex
CREATE INDEX "oauth2_authorization_codes_client_id_idx" ON "oauth2_authorization_codes"("client_id");

-- CreateIndex
CREATE UNIQUE INDEX "oauth2_tokens_access_token_hash_key" ON "oauth2_tokens"("access_token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "oauth2_tokens_refresh_token_hash_key" ON "oauth2_tokens"("refresh_token_hash");

-- CreateIndex
CREATE INDEX "oauth2_tokens_client_id_idx" ON "oauth2_tokens"("client_id");

-- CreateIndex
CREATE INDEX "oauth2_tokens_family_id_idx" ON "oauth2_tokens"("family_id");

-- CreateIndex
CREATE INDEX "oauth2_tokens_authorization_code_id_idx" ON "oauth2_tokens"("authorization_code_id");

-- AddForeignKey
ALTER TABLE "oauth2_clients" ADD CONSTRAINT "oauth2_clients_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth2_authorization_codes" ADD CONSTRAINT "oauth2_authorization_codes_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "oauth2_clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth2_authorization_codes" ADD CONSTRAINT "oauth2_authorization_codes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth2_authorization_codes" ADD CONSTRAINT "oauth2_authorization_codes_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth2_tokens" ADD CONSTRAINT "oauth2_tokens_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "oauth2_clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth2_tokens" ADD CONSTRAINT "oauth2_tokens_authorization_code_id_fkey" FOREIGN KEY ("authorization_code_id") REFERENCES "oauth2_authorization_codes"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth2_tokens" ADD CONSTRAINT "oauth2_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth2_tokens" ADD CONSTRAINT "oauth2_tokens_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

