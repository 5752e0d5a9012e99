
ALTER TABLE console_users ADD COLUMN demo_account integer NOT NULL DEFAULT 0 CHECK (demo_account IN (0, 1));
UPDATE console_users SET demo_account = 1
 WHERE username IN ('admin', 'maker', 'checker', 'auditor', 'nimal_perera', 'kumari_fernando', 'sunil_jayasinghe', 'dilani_w', 'ruwan_bandara', 'chamari_silva', 'arjun_t', 'nadeesha_g', 'kasun_herath', 'ishara_d', 'lahiru_w', 'sanduni_k', 'mahesh_s', 'priyanka_e', 'fathima_rizna', 'tharindu_r')
   AND email = replace(username, '_', '.') || '@remit.lk';
